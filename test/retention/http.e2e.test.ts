import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { appendMessage, beginTurn, startSession } from '@session-ledger/sessions';
import { tempDir } from '../support/cli.js';
import { z } from 'zod';
import { bodyOf, errorOf, startServer } from '../support/http.js';
import { buildConversation, writerOn } from './helpers.js';

describe('DELETE /sessions/:id with If-Match, and GET /sessions/:id/export (HTTP)', { timeout: 60_000 }, () => {
  const file = join(tempDir('retention-http-'), 'ledger.sqlite');
  const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
  const store = openSqliteStore(file);
  const writer = writerOn(store, new Date().toISOString());
  let service: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    await buildConversation(writer.context);
    for (const id of ['drifting', 'held', 'idle', 'weakly', 'bodied']) await startSession(writer.context, { id });
    await beginTurn(writer.context, 'held', { ttlMs: 3_600_000 });
    service = await startServer(env);
  });
  afterAll(async () => {
    await service?.stop();
    await store.close();
  });

  const etagOf = async (id: string) => {
    const response = await fetch(`${service.url}/sessions/${id}`);
    expect(response.status).toBe(200);
    return response.headers.get('etag')!;
  };
  const remove = (id: string, headers: Record<string, string> = {}, query = '') => fetch(`${service.url}/sessions/${id}${query}`, { method: 'DELETE', headers });

  it('answers 412 precondition_failed when the conversation changed since the client saw it, and keeps it', async () => {
    const seen = await etagOf('drifting');
    await appendMessage(writer.context, 'drifting', { role: 'user', content: 'arrived after the GET' });

    const response = await remove('drifting', { 'if-match': seen });

    expect(response.status).toBe(412);
    expect(await errorOf(response)).toMatchObject({ type: 'precondition_failed', details: { expected: seen } });
    expect((await fetch(`${service.url}/sessions/drifting`)).status).toBe(200);
  });

  it('compares If-Match strongly (RFC 9110): the weak form of the current ETag is 412 and deletes nothing; the strong one in a list deletes', async () => {
    const seen = await etagOf('weakly');

    const weak = await remove('weakly', { 'if-match': `W/${seen}` });
    expect(weak.status).toBe(412);
    expect(await errorOf(weak)).toMatchObject({ type: 'precondition_failed', message: expect.stringContaining('names only weak tags, which never match') });
    expect((await fetch(`${service.url}/sessions/weakly`)).status).toBe(200);
    expect((await remove('weakly', { 'if-match': `W/"other", ${seen}` })).status).toBe(200);
  });

  it('refuses a DELETE with a body (400; 415 unless JSON) and deletes nothing: an option sent there is never dropped (outside test, session 21)', async () => {
    const send = (body: string, type: string) => fetch(`${service.url}/sessions/bodied`, { method: 'DELETE', headers: { 'if-match': '*', 'content-type': type }, body });

    const option = await send('{"lineage":"tip"}', 'application/json');
    expect(option.status).toBe(400);
    expect(await errorOf(option)).toMatchObject({ type: 'invalid_input', message: 'DELETE /sessions/:id takes no body: its options go in the query' });
    expect((await send('{}', 'application/json')).status).toBe(400);
    expect((await send('lineage=tip', 'text/plain')).status).toBe(415);
    expect((await fetch(`${service.url}/sessions/bodied`)).status).toBe(200);
    expect((await remove('bodied', { 'if-match': '*' })).status).toBe(200);
  });

  it('refuses a GET or HEAD with a body (400): an option sent there was dropped and the export answered on the defaults (outside test, session 27)', async () => {
    // fetch() cannot send a body with GET; some HTTP libraries do.
    const sent = (method: string, body: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = httpRequest(`${service.url}/sessions/idle/export`, { method, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, text }));
        });
        request.on('error', reject);
        request.end(body);
      });
    const get = await sent('GET', '{"format":"jsonl"}');
    expect(get.status).toBe(400);
    expect(JSON.parse(get.text).error).toMatchObject({ type: 'invalid_input', message: 'GET /sessions/:id/export takes no body: its options go in the query' });
    expect((await sent('HEAD', 'null')).status).toBe(400);
    expect((await fetch(`${service.url}/sessions/idle/export?format=jsonl`)).headers.get('content-type')).toMatch(/jsonl|ndjson|json/);
  });

  it('answers 409 session_active while a live turn holds it', async () => {
    const response = await remove('held', { 'if-match': await etagOf('held') });

    expect(response.status).toBe(409);
    const error = await errorOf(response);
    expect(error.type).toBe('session_active');
    expect(error.message).toMatch(/^Cannot delete active session held/);
  });

  it('with delegated children, takes only the review\'s ETag: the view\'s is 412 pointing at the review, and a write to a child since the review is 412 (outside test, session 16)', async () => {
    const reviewOf = async () => {
      const response = await fetch(`${service.url}/sessions/root-2/deletion`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { etag: string; streams: Array<{ sessionId: string; revision: number; rootId: string; link: string | null; depth: number }> };
      expect(response.headers.get('etag')).toBe(body.etag);
      return body;
    };
    const review = await reviewOf();
    expect(review.streams.map(({ sessionId, rootId, link, depth }) => [sessionId, rootId, link, depth])).toEqual([
      ['root', 'root', null, 0],
      ['root-2', 'root', null, 0],
      ['sub', 'sub', 'delegation', 1],
      ['subsub', 'subsub', 'delegation', 2],
    ]);

    // The view names the root conversation's segments only: it cannot fence the children.
    const byView = await remove('root-2', { 'if-match': await etagOf('root') });
    expect(byView.status).toBe(412);
    expect((await errorOf(byView)).message).toContain('also tombstones 2 delegated conversation(s)');
    expect((await errorOf(await remove('root-2', { 'if-match': await etagOf('root') }))).message).toContain('GET /sessions/root-2/deletion');

    // A write to a delegated child after the review: the review's ETag no longer matches, nothing goes.
    await appendMessage(writer.context, 'sub', { role: 'user', content: 'written to the child after the review' });
    expect((await remove('root-2', { 'if-match': review.etag })).status).toBe(412);
    for (const id of ['root', 'sub', 'subsub']) expect((await fetch(`${service.url}/sessions/${id}`)).status).toBe(200);

    const again = await reviewOf();
    expect(again.etag).not.toBe(review.etag);
    const response = await remove('root-2', { 'if-match': again.etag });
    expect(response.status).toBe(200);
    const body = await bodyOf(response, z.looseObject({ deleted: z.array(z.string()) }));
    expect(body).toMatchObject({ requestedId: 'root-2', rootId: 'root' });
    expect([...body.deleted].sort()).toEqual(again.streams.map(({ sessionId }) => `session-${sessionId}`).sort());
    const gone = await remove('root', { 'if-match': '*' });
    expect([gone.status, gone.headers.get('content-type')]).toEqual([410, 'application/problem+json; charset=utf-8']);
    expect(await gone.json()).toMatchObject({ status: 410, code: 'session_deleted', type: 'urn:session-ledger:error:session_deleted' });
    expect((await fetch(`${service.url}/sessions/root`)).status).toBe(410);
    expect((await fetch(`${service.url}/sessions/root-2/deletion`)).status).toBe(410);
    expect((await fetch(`${service.url}/sessions/br`)).status).toBe(200);
  });

  it('without delegated children, the view\'s ETag is the review\'s and deletes', async () => {
    await startSession(writer.context, { id: 'plain' });
    await appendMessage(writer.context, 'plain', { role: 'user', content: 'hello' });
    const seen = await etagOf('plain');
    expect((await fetch(`${service.url}/sessions/plain/deletion`)).headers.get('etag')).toBe(seen);
    expect((await remove('plain', { 'if-match': seen })).status).toBe(200);
  });

  it('answers 404 for an unknown id, 428 without If-Match, 400 for a bad lineage', async () => {
    expect((await remove('nobody', { 'if-match': '*' })).status).toBe(404);
    const missing = await remove('idle');
    expect(missing.status).toBe(428);
    expect((await errorOf(missing)).type).toBe('precondition_required');
    expect((await remove('idle', { 'if-match': '*' }, '?lineage=sideways')).status).toBe(400);
    expect((await remove('idle', { 'if-match': '*' })).status).toBe(200);
  });

  it('GET /sessions/:id/export returns the document and names its digest', async () => {
    const response = await fetch(`${service.url}/sessions/br/export?format=html`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain(`"digest":"${response.headers.get('x-export-digest')}"`);
    expect((await fetch(`${service.url}/sessions/br/export?format=pdf`)).status).toBe(400);
  });
});
