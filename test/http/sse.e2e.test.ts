import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempDir } from '../support/cli.js';
import { rawRequest, readRawSse, startServer } from '../support/http.js';

const frames = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => block.split('\n'));

const count = (text: string, line: string) => text.split('\n').filter((l) => l === line).length;

describe('HTTP service: Server-Sent Events', () => {
  const file = join(tempDir(), 'ledger.sqlite');
  const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    service = await startServer(env, ['--max-subscribers', '3']);
  });
  afterAll(async () => service?.stop());

  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('sends retry: first, then history, then caught-up exactly once, however many live events follow', async () => {
    await post('/streams/once-1', { type: 'tick', data: { n: 1 } });
    let wrote = false;
    const { text } = await readRawSse(`${service.url}/subscribe?prefix=once-`, {
      until: (seen) => {
        if (seen.includes('event: caught-up') && !wrote) {
          wrote = true;
          void (async () => {
            for (const n of [2, 3, 4]) await post(`/streams/once-${n}`, { type: 'tick', data: { n } });
          })();
        }
        return count(seen, 'event: tick') === 4 && seen.endsWith('\n\n');
      },
    });
    expect(text.split('\n')).toContain(`retry: 2000`);
    expect(text.indexOf('retry: 2000')).toBeLessThan(text.indexOf('event: tick'));
    expect(count(text, 'event: caught-up')).toBe(1);
    expect(frames(text).map((lines) => lines.find((line) => line.startsWith('event: '))).filter(Boolean)).toEqual([
      'event: tick',
      'event: caught-up',
      'event: tick',
      'event: tick',
      'event: tick',
    ]);
  });

  it('never lets an event type forge a frame: refused at the surface, escaped in the stream', async () => {
    const forged = 'note\nid: 999999999\nevent: message.appended\ndata: {"forged":true}';
    const refused = await post('/streams/forge-1', { type: forged, data: {} });
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([400, 'invalid_input']);
    // Stored by a path that does not check (the store itself): the SSE writer must still keep it in one field.
    const store = openSqliteStore(file);
    await store.appendToStream('forge-2', [{ id: randomUUID(), type: forged, data: {} }], { expectedRevision: 'any' });
    await store.close();
    const { text } = await readRawSse(`${service.url}/subscribe?prefix=forge-`, { until: (seen) => seen.includes('event: caught-up') });
    const events = frames(text).filter((lines) => lines.some((line) => line.startsWith('id: ')));
    expect(events).toHaveLength(1);
    expect(events[0]!.filter((line) => line.startsWith('id: '))).toHaveLength(1);
    expect(events[0]!.find((line) => line.startsWith('event: '))).toBe('event: note\\u000aid: 999999999\\u000aevent: message.appended\\u000adata: {"forged":true}');
    expect(text).not.toContain('id: 999999999\n');
  });

  it.each(['caught-up', 'error'])('never lets an event of type %s pass for the feed\'s own frame: refused at the surface, sent unnamed', async (type) => {
    const stream = `frame-${type}`;
    const refused = await post(`/streams/${stream}-1`, { type, data: { position: 1 } });
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([400, 'invalid_input']);
    // Stored by a path that does not check (the store itself, or a version before the check).
    const store = openSqliteStore(file);
    await store.appendToStream(`${stream}-2`, [{ id: randomUUID(), type, data: { position: 1 } }], { expectedRevision: 'any' });
    await store.close();
    const { text } = await readRawSse(`${service.url}/subscribe?prefix=${stream}-`, { until: (seen) => seen.includes('event: caught-up') });
    expect(count(text, `event: ${type}`)).toBe(type === 'caught-up' ? 1 : 0);
    const events = frames(text).filter((lines) => lines.some((line) => line.startsWith('id: ')));
    expect(events).toHaveLength(1);
    expect(events[0]!.some((line) => line.startsWith('event: '))).toBe(false);
    expect(JSON.parse(events[0]!.find((line) => line.startsWith('data: '))!.slice(6))).toMatchObject({ stream: `${stream}-2`, type });
  });

  it('resumes after ?after or Last-Event-ID, refuses ?from and a malformed Last-Event-ID', async () => {
    for (const n of [1, 2, 3]) await post(`/streams/resume-${n}`, { type: 'tick', data: { n } });
    const all = await readRawSse(`${service.url}/subscribe?prefix=resume-`, { until: (seen) => seen.includes('event: caught-up') });
    const ids = all.text.split('\n').filter((line) => line.startsWith('id: ')).map((line) => line.slice(4));
    expect(ids).toHaveLength(3);
    const ticks = (text: string) => text.split('\n').filter((line) => line.startsWith('data: {"stream"')).map((line) => JSON.parse(line.slice(6)).data.n);
    const after = await readRawSse(`${service.url}/subscribe?prefix=resume-&after=${ids[0]}`, { until: (seen) => seen.includes('event: caught-up') });
    expect(ticks(after.text)).toEqual([2, 3]);
    const header = await readRawSse(`${service.url}/subscribe?prefix=resume-&after=${ids[0]}`, {
      headers: { 'last-event-id': ids[1]! },
      until: (seen) => seen.includes('event: caught-up'),
    });
    expect(ticks(header.text)).toEqual([3]);

    const from = await rawRequest(service.url, { path: `/subscribe?from=${ids[0]}` });
    expect([from.status, from.json().detail]).toEqual([400, expect.stringContaining('"from"')]);
    const bad = await rawRequest(service.url, { path: '/subscribe', headers: { 'last-event-id': 'yesterday' } });
    expect([bad.status, bad.json().code]).toEqual([400, 'invalid_input']);
  });

  it('answers HEAD with the stream headers only, and a subscriber past the limit with 503 and Retry-After', async () => {
    const head = await rawRequest(service.url, { method: 'HEAD', path: '/subscribe' });
    expect([head.status, head.headers['content-type'], head.text]).toEqual([200, 'text/event-stream; charset=utf-8', '']);

    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const open = await Promise.all(controllers.map((controller) => fetch(`${service.url}/subscribe`, { signal: controller.signal })));
    expect(open.map((response) => response.status)).toEqual([200, 200, 200]);
    const refused = await rawRequest(service.url, { path: '/subscribe' });
    expect([refused.status, refused.headers['retry-after'], refused.json().code]).toEqual([503, '5', 'too_many_subscribers']);
    controllers[0]!.abort();
    let again = 0;
    for (let i = 0; i < 200 && again !== 200; i += 1) {
      again = (await readRawSse(`${service.url}/subscribe`, { until: (seen) => seen.includes('retry:') }).catch(() => ({ status: 0 }))).status;
      if (again !== 200) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(again).toBe(200);
    for (const controller of controllers) controller.abort();
  });

  it("a conversation's live feed ends with a session_deleted error frame when the conversation is deleted; the reconnect is 410", async () => {
    expect((await post('/sessions', { id: 'feed-gone' })).status).toBe(201);
    expect((await post('/sessions/feed-gone/messages', { role: 'user', content: 'hello' })).status).toBe(201);
    let deleting = false;
    // Ends only when the server ends the response (until never holds).
    const { status, text } = await readRawSse(`${service.url}/sessions/feed-gone/events`, {
      until: (seen) => {
        if (seen.includes('event: caught-up') && !deleting) {
          deleting = true;
          void fetch(`${service.url}/sessions/feed-gone`, { method: 'DELETE', headers: { 'if-match': '*' } });
        }
        return false;
      },
    });
    expect(status).toBe(200);
    const last = frames(text).at(-1)!;
    expect(last[0]).toBe('event: error');
    expect(JSON.parse(last[1]!.slice('data: '.length))).toMatchObject({ type: 'session_deleted', message: expect.stringContaining('feed-gone was deleted') });
    expect((await fetch(`${service.url}/sessions/feed-gone/events`)).status).toBe(410);
  });

  it("deleting only the tip (lineage=tip) leaves the conversation's feed open: it follows the next compression, and ends at the whole conversation's deletion", async () => {
    expect((await post('/sessions', { id: 'feed-tip' })).status).toBe(201);
    expect((await post('/sessions/feed-tip/compress', { summary: 'first', childId: 'feed-tip-2' })).status).toBe(201);
    const steps: Array<() => Promise<unknown>> = [
      // the tip alone goes; then the root, whose continuation names a deleted child, compresses again
      async () => {
        expect((await fetch(`${service.url}/sessions/feed-tip-2?lineage=tip`, { method: 'DELETE', headers: { 'if-match': '*' } })).status).toBe(200);
        expect((await post('/sessions/feed-tip/compress', { summary: 'second', childId: 'feed-tip-3' })).status).toBe(201);
      },
      async () => expect((await fetch(`${service.url}/sessions/feed-tip`, { method: 'DELETE', headers: { 'if-match': '*' } })).status).toBe(200),
    ];
    let step = 0;
    const { text } = await readRawSse(`${service.url}/sessions/feed-tip/events`, {
      until: (seen) => {
        const due = step === 0 ? seen.includes('event: caught-up') : seen.includes('"sessionId":"feed-tip-3"');
        if (due && step < steps.length) void steps[step++]!();
        return false;
      },
    });
    const names = frames(text).map((frame) => frame.find((line) => line.startsWith('event: ')));
    // the third segment's start arrived after the tip's deletion: the feed was still open
    expect(text).toContain('"sessionId":"feed-tip-3"');
    expect(names.filter((name) => name === 'event: error')).toHaveLength(1);
    expect(names.at(-1)).toBe('event: error');
  });
});
