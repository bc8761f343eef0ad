import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { z } from 'zod';
import { bodyOf, errorBody, readSse, startServer } from '../support/http.js';

/** The CLI with --json on a ledger; a non-zero exit throws with its stderr. */
const jsonCli =
  (env: Record<string, string>) =>
  (...args: string[]) => {
    const result = runCli([...args, '--json'], { env });
    if (result.code !== 0) throw new Error(`${args.join(' ')} -> ${result.code}: ${result.stderr}`);
    return result.json();
  };

/**
 * Seed 002: a session compressed 4 times; its messages live only in a later segment. Resuming the
 * id the harness printed (the root), the tip or a middle segment must show the whole conversation.
 */
describe('resume by any id through the CLI (seed 002 reproduction)', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  const cli = jsonCli(env);

  it('sessions end under another live turn is refused (exit 1, session_active); with --turn the holder ends it', () => {
    const id = cli('sessions', 'start').sessionId as string;
    const turn = cli('turns', 'begin', id, '--ttl', '5m').turnId as string;
    const refused = runCli(['sessions', 'end', id, '--reason', 'other harness'], { env });
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(turn)]);
    expect(cli('sessions', 'end', id, '--turn', turn)).toMatchObject({ written: true });
  });

  it('sessions reopen lets an ended session take messages again; reopening an open one says so, exit 0', () => {
    const id = cli('sessions', 'start').sessionId as string;
    cli('sessions', 'end', id, '--reason', 'cli_close');
    const refused = runCli(['messages', 'append', id, '--role', 'user', '--content', 'late'], { env });
    expect(refused.code).toBe(1);
    expect(cli('sessions', 'reopen', id)).toMatchObject({ written: true });
    expect(cli('messages', 'append', id, '--role', 'user', '--content', 'resumed')).toMatchObject({ written: true });
    const again = runCli(['sessions', 'reopen', id], { env });
    expect([again.code, again.stderr.trim()]).toEqual([0, `${id} is open already`]);
    expect(cli('sessions', 'show', id).markers.map((m: { kind: string }) => m.kind)).toEqual(['ended', 'reopened']);
  });

  it("a deleted session's own id names it still: deleting it again, or showing it, never reaches a session its id prefixes", () => {
    const gone = cli('sessions', 'start').sessionId as string;
    const other = cli('sessions', 'start', '--id', `${gone}-retry`).sessionId as string;
    expect(cli('sessions', 'delete', gone, '--yes')).toMatchObject({ deleted: [gone] });
    // Before, the catalog forgot the deleted id, the selector matched as a prefix, and the retry deleted the other conversation.
    const again = runCli(['sessions', 'delete', gone, '--yes', '--json'], { env });
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ deleted: [] });
    const shown = runCli(['sessions', 'show', gone], { env });
    expect([shown.code, shown.stderr]).toEqual([1, expect.stringContaining('is deleted')]);
    expect(cli('sessions', 'show', other).rootId).toBe(other);
  });

  it('compact --summary-id and compress --child-id run again store nothing new (a blind retry stored a second summary)', () => {
    const id = cli('sessions', 'start').sessionId as string;
    const message = cli('messages', 'append', id, '--role', 'user', '--content', 'one').messageId as string;
    expect(cli('sessions', 'compact', id, '--through', message, '--summary', 'S', '--summary-id', `${id}-sum`)).toMatchObject({ written: true });
    expect(cli('sessions', 'compact', id, '--through', message, '--summary', 'S', '--summary-id', `${id}-sum`)).toMatchObject({ written: false });
    expect(cli('sessions', 'compress', id, '--summary', 'C', '--child-id', `${id}-2`)).toMatchObject({ sessionId: `${id}-2`, written: true });
    expect(cli('sessions', 'compress', id, '--summary', 'C', '--child-id', `${id}-2`)).toMatchObject({ sessionId: `${id}-2`, written: false });
    const raw = cli('sessions', 'show', id, '--view', 'raw').events as { type: string }[];
    expect(raw.filter((event) => event.type === 'history.compacted')).toHaveLength(1);
    expect(raw.filter((event) => event.type === 'session.continued')).toHaveLength(1);
  });

  it('resumes the whole conversation from the root, the tip and a middle id', () => {
    const root = cli('sessions', 'start', '--title', 'long chat').sessionId as string;
    const segments = [root];
    for (let n = 1; n <= 3; n += 1) segments.push(cli('sessions', 'compress', segments[n - 1]!, '--summary', `compression ${n}`).sessionId);
    const holder = segments[3]!;
    const texts = ['inspect the DOM', 'here is the snapshot', 'summarise it'];
    cli('messages', 'append', holder, '--role', 'user', '--content', texts[0]!);
    cli('messages', 'append', holder, '--role', 'assistant', '--content', texts[1]!);
    cli('messages', 'append', holder, '--role', 'user', '--content', texts[2]!);
    const compressed = cli('sessions', 'compress', holder, '--summary', 'compression 4');
    expect(compressed.rootId).toBe(root);
    segments.push(compressed.sessionId);

    const views = [root, segments[2]!, compressed.sessionId].map((id) => cli('sessions', 'show', id));
    for (const view of views) {
      expect(view.rootId).toBe(root);
      expect(view.tipId).toBe(compressed.sessionId);
      expect(view.segments.map((s: { sessionId: string }) => s.sessionId)).toEqual(segments);
      expect(view.messages.map((m: { content: string }) => m.content)).toEqual(texts);
    }
    const resumed = runCli(['sessions', 'resume', root], { env });
    expect(resumed.code).toBe(0);
    for (const text of texts) expect(resumed.stdout).toContain(text);
    const list = cli('sessions', 'list').sessions;
    expect(list.filter((row: { rootId: string }) => row.rootId === root)).toEqual([
      expect.objectContaining({ rootId: root, tipId: compressed.sessionId, messages: 3, live: false }),
    ]);
  });

  it('keeps compacted messages in display and out of active; a rewrite keeps the count', () => {
    const id = cli('sessions', 'start').sessionId as string;
    const first = cli('messages', 'append', id, '--role', 'user', '--content', 'one').messageId;
    cli('messages', 'append', id, '--role', 'assistant', '--content', 'two');
    cli('sessions', 'compact', id, '--through', first, '--summary', 'the user said one');
    const display = cli('sessions', 'show', id);
    const active = cli('sessions', 'show', id, '--view', 'active');
    expect(display.messages.map((m: { content: string; compacted: boolean }) => [m.content, m.compacted])).toEqual([
      ['one', true],
      ['two', false],
    ]);
    expect(JSON.stringify(active.messages)).not.toContain('"one"');
    expect(JSON.stringify(active.messages)).toContain('the user said one');
    cli('messages', 'rewrite', id, first, '--content', 'ONE');
    const rewritten = cli('sessions', 'show', id);
    expect(rewritten.messages).toHaveLength(2);
    expect(rewritten.messages[0].content).toBe('ONE');
  });

  it('a retried append with the same message id does not duplicate', () => {
    const id = cli('sessions', 'start').sessionId as string;
    cli('messages', 'append', id, '--role', 'user', '--content', 'once', '--id', 'm-1');
    cli('messages', 'append', id, '--role', 'user', '--content', 'once', '--id', 'm-1');
    expect(cli('sessions', 'show', id).messages).toHaveLength(1);
  });

  it('refuses a second live turn, and bad input, with the documented exit codes', () => {
    const id = cli('sessions', 'start').sessionId as string;
    const turn = cli('turns', 'begin', id, '--ttl', '5m');
    expect(turn.turnId).toBeTruthy();
    expect(runCli(['turns', 'begin', id], { env }).code).toBe(1);
    expect(runCli(['turns', 'begin', id, '--ttl', 'soon'], { env }).code).toBe(2);
    expect(runCli(['messages', 'append', id, '--role', 'robot', '--content', 'x'], { env }).code).toBe(2);
    expect(runCli(['sessions', 'show', 'no-such-session'], { env }).code).toBe(3);
    expect(runCli(['sessions', 'show', id, '--view', 'pretty'], { env }).code).toBe(2);
    cli('turns', 'end', id, turn.turnId);
    expect(cli('turns', 'begin', id).turnId).toBeTruthy();
  });

  it('fences messages by their turn: an ended turn or another live turn refuses them, with one line and the documented codes', () => {
    const id = cli('sessions', 'start').sessionId as string;
    const first = cli('turns', 'begin', id, '--ttl', '5m').turnId as string;
    cli('messages', 'append', id, '--role', 'user', '--content', 'in the turn', '--turn', first);
    cli('turns', 'end', id, first);

    const ended = runCli(['messages', 'append', id, '--role', 'user', '--content', 'late', '--turn', first], { env });
    expect([ended.code, ended.stderr.trim().split('\n')]).toEqual([3, [expect.stringMatching(/has ended/)]]);
    const second = cli('turns', 'begin', id, '--ttl', '5m').turnId as string;
    const zombie = runCli(['messages', 'append', id, '--role', 'user', '--content', 'zombie', '--turn', first], { env });
    expect([zombie.code, zombie.stderr]).toEqual([1, expect.stringContaining(second)]);
    expect(cli('sessions', 'show', id).messages.map((m: { content: string }) => m.content)).toEqual(['in the turn']);
  });
});

describe('a reset through the CLI and over HTTP', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  const cli = jsonCli(env);

  it('starts a conversation that shows the one it reset above its own, and deletes on the ETag GET gave', async () => {
    const old = cli('sessions', 'start').sessionId as string;
    cli('messages', 'append', old, '--role', 'user', '--content', 'before the reset');
    const fresh = cli('sessions', 'start', '--parent', old, '--link', 'reset').sessionId as string;
    cli('messages', 'append', fresh, '--role', 'user', '--content', 'after the reset');
    const shown = cli('sessions', 'show', fresh);
    expect([shown.rootId, shown.earlier.messages, shown.messages.map((m: { content: string }) => m.content)]).toEqual([fresh, 1, ['before the reset', 'after the reset']]);
    expect(cli('sessions', 'show', fresh, '--view', 'active').messages).toHaveLength(1);

    const service = await startServer(env);
    try {
      const post = (path: string, body: unknown) => fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const child = (await (await post('/sessions', { parentId: fresh, link: 'reset' })).json()) as { sessionId: string };
      expect((await post(`/sessions/${child.sessionId}/messages`, { role: 'user', content: 'third' })).status).toBe(201);
      const got = await fetch(`${service.url}/sessions/${child.sessionId}`);
      const body = (await got.json()) as { earlier: { messages: number }; messages: Array<{ content: string }> };
      expect([body.earlier.messages, body.messages.map((m) => m.content)]).toEqual([2, ['before the reset', 'after the reset', 'third']]);
      const gone = await fetch(`${service.url}/sessions/${child.sessionId}`, { method: 'DELETE', headers: { 'if-match': got.headers.get('etag')! } });
      expect(gone.status).toBe(200);
      expect((await fetch(`${service.url}/sessions/${fresh}`)).status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});

describe('sessions over HTTP', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    service = await startServer(env);
  });
  afterAll(async () => service?.stop());
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, etag: response.headers.get('etag'), body: response.status === 304 ? null : await response.json() };
  };
  /** A call whose JSON body must have the given shape (a 304 has none). */
  const callAs = async <S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, etag: response.headers.get('etag'), body: response.status === 304 ? null : await bodyOf(response, schema) };
  };
  const started = z.object({ sessionId: z.string() });
  const view = z.object({ rootId: z.string(), messages: z.array(z.object({ content: z.string() })) });
  const turnBody = z.object({ turnId: z.string() });

  it('resumes by root, middle and tip after compressions, with an ETag that moves on every write', async () => {
    const root = (await callAs(started, 'POST', '/sessions', { title: 'http chat' })).body!.sessionId;
    const ids = [root];
    for (let n = 1; n <= 4; n += 1) {
      if (n === 3) {
        for (const content of ['a', 'b']) expect((await call('POST', `/sessions/${ids[n - 1]}/messages`, { role: 'user', content })).status).toBe(201);
      }
      ids.push((await callAs(started, 'POST', `/sessions/${ids[n - 1]}/compress`, { summary: `c${n}` })).body!.sessionId);
    }
    const views = await Promise.all([root, ids[2], ids[4]].map((id) => callAs(view, 'GET', `/sessions/${id}`)));
    for (const seen of views) {
      expect(seen.status).toBe(200);
      expect(seen.body!.rootId).toBe(root);
      expect(seen.body!.messages.map((m) => m.content)).toEqual(['a', 'b']);
      expect(seen.etag).toBe(views[0]!.etag);
    }
    expect((await fetch(`${service.url}/sessions/${root}`, { headers: { 'if-none-match': views[0]!.etag! } })).status).toBe(304);
    await call('POST', `/sessions/${ids[4]}/messages`, { role: 'assistant', content: 'c' });
    expect((await call('GET', `/sessions/${root}`)).etag).not.toBe(views[0]!.etag);
    const sealed = await callAs(errorBody, 'POST', `/sessions/${root}/messages`, { role: 'user', content: 'late' });
    expect(sealed.status).toBe(409);
    expect(sealed.body!.error.details?.tipId).toBe(ids[4]);
  });

  it('reopens an ended session: 201, then 200 while open; a compressed one is 409 naming its tip', async () => {
    const id = (await callAs(started, 'POST', '/sessions', {})).body!.sessionId;
    expect((await call('POST', `/sessions/${id}/end`, { reason: 'cli_close' })).status).toBe(200);
    expect((await call('POST', `/sessions/${id}/messages`, { role: 'user', content: 'late' })).status).toBe(409);
    expect((await call('POST', `/sessions/${id}/reopen`, {})).status).toBe(201);
    expect((await call('POST', `/sessions/${id}/reopen`, {})).status).toBe(200);
    // A retry names the revision it saw before its reopen; one ahead of the session is no retry (session 31, F9).
    expect((await call('POST', `/sessions/${id}/reopen`, { expectedRevision: 1 })).status).toBe(200);
    expect((await call('POST', `/sessions/${id}/reopen`, { expectedRevision: 99 })).status).toBe(409);
    expect((await call('POST', `/sessions/${id}/messages`, { role: 'user', content: 'resumed' })).status).toBe(201);
    expect((await call('POST', `/sessions/${id}/reopen`, { reason: 'x' })).status).toBe(400);
    const tip = (await callAs(started, 'POST', `/sessions/${id}/compress`, { summary: 's' })).body!.sessionId;
    const sealed = await callAs(errorBody, 'POST', `/sessions/${id}/reopen`, {});
    expect([sealed.status, sealed.body!.error.details?.tipId]).toEqual([409, tip]);
  });

  it('a session its live turn ended is held by that turn again once reopened, until the turn ends', async () => {
    const id = (await callAs(started, 'POST', '/sessions', {})).body!.sessionId;
    const turnId = (await callAs(turnBody, 'POST', `/sessions/${id}/turns`, { ttl: '1m' })).body!.turnId;
    expect((await call('POST', `/sessions/${id}/end`, { turnId })).status).toBe(200);
    expect((await call('POST', `/sessions/${id}/reopen`, {})).status).toBe(201);
    expect((await call('POST', `/sessions/${id}/turns`, {})).status).toBe(409);
    expect((await call('POST', `/sessions/${id}/messages`, { role: 'user', content: 'resumed', turnId })).status).toBe(201);
    expect((await call('POST', `/sessions/${id}/turns/${turnId}/end`, {})).status).toBe(200);
    expect((await call('POST', `/sessions/${id}/turns`, {})).status).toBe(201);
  });

  it("answers 410 for a deleted session's own id, never the conversation it prefixes or one titled with it", async () => {
    const gone = (await callAs(started, 'POST', '/sessions', {})).body!.sessionId;
    const prefixed = (await callAs(started, 'POST', '/sessions', { id: `${gone}-retry` })).body!.sessionId;
    const titled = (await callAs(started, 'POST', '/sessions', { title: gone })).body!.sessionId;
    expect((await fetch(`${service.url}/sessions/${gone}`, { method: 'DELETE', headers: { 'if-match': '*' } })).status).toBe(200);
    for (const path of [`/sessions/${gone}`, `/sessions/${gone}?view=raw`, `/sessions/${gone}/transcript`]) {
      const response = await fetch(`${service.url}${path}`);
      expect([path, response.status]).toEqual([path, 410]);
      await response.body?.cancel();
    }
    for (const id of [prefixed, titled]) expect((await callAs(view, 'GET', `/sessions/${id}`)).body!.rootId).toBe(id);
  });

  it('answers 400 for bad bodies, 404 for unknown sessions, 409 for a second live turn', async () => {
    const id = (await callAs(started, 'POST', '/sessions', {})).body!.sessionId;
    expect((await call('POST', `/sessions/${id}/messages`, { role: 'user' })).status).toBe(400);
    expect((await call('POST', `/sessions/${id}/messages`, { role: 'wizard', content: 'x' })).status).toBe(400);
    expect((await call('GET', '/sessions/nobody-here')).status).toBe(404);
    expect((await call('GET', `/sessions/${id}?view=fancy`)).status).toBe(400);
    const turn = await callAs(turnBody, 'POST', `/sessions/${id}/turns`, { ttl: '1m' });
    const turnId = turn.body!.turnId;
    expect(turn.status).toBe(201);
    expect((await call('POST', `/sessions/${id}/turns`, { ttl: '1m' })).status).toBe(409);
    expect((await call('POST', `/sessions/${id}/messages`, { role: 'user', content: 'x', turnId: 'not-this-one' })).body).toMatchObject({
      error: { type: 'session_active', details: { turnId } },
    });
    expect((await call('POST', `/sessions/${id}/messages`, { role: 'user', content: 'x', turnId })).status).toBe(201);
    // Ending the session under another live turn is refused (outside test, session 26: it was accepted); the turn itself may.
    expect((await call('POST', `/sessions/${id}/end`, { reason: 'other harness' })).status).toBe(409);
    await call('POST', `/sessions/${id}/turns/${turnId}/end`, {});
    const ended = await callAs(errorBody, 'POST', `/sessions/${id}/messages`, { role: 'user', content: 'x', turnId });
    expect([ended.status, ended.body!.error.type]).toEqual([404, 'turn_not_found']);
    const held = (await callAs(started, 'POST', '/sessions', {})).body!.sessionId;
    const holder = (await callAs(turnBody, 'POST', `/sessions/${held}/turns`, { ttl: '1m' })).body!.turnId;
    expect((await call('POST', `/sessions/${held}/end`, { reason: 'done', turnId: holder })).status).toBe(200);
  });

  it("streams one conversation's events across compression; a reconnect with Last-Event-ID misses nothing", async () => {
    const id = (await callAs(started, 'POST', '/sessions', {})).body!.sessionId;
    const other = (await callAs(started, 'POST', '/sessions', {})).body!.sessionId;
    await call('POST', `/sessions/${id}/messages`, { role: 'user', content: 'first' });
    await call('POST', `/sessions/${other}/messages`, { role: 'user', content: 'noise' });
    const url = `${service.url}/sessions/${id}/events?type=message.appended`;
    const first = await readSse(url, { until: (events) => events.some((e) => e.event === 'caught-up') });
    const seen = first.filter((e) => e.event === 'message.appended');
    expect(seen.map((e) => JSON.parse(e.data).data.content)).toEqual(['first']);
    const child = (await callAs(started, 'POST', `/sessions/${id}/compress`, { summary: 's' })).body!.sessionId;
    await call('POST', `/sessions/${child}/messages`, { role: 'user', content: 'second' });
    await call('POST', `/sessions/${child}/messages`, { role: 'user', content: 'third' });
    const second = await readSse(url, {
      lastEventId: seen[seen.length - 1]!.id!,
      until: (events) => events.filter((e) => e.event === 'message.appended').length >= 2,
    });
    const contents = [...seen, ...second.filter((e) => e.event === 'message.appended')].map((e) => JSON.parse(e.data).data.content);
    expect(contents).toEqual(['first', 'second', 'third']);
  });
});
