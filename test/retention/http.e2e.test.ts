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
    for (const id of ['drifting', 'held', 'idle', 'weakly']) await startSession(writer.context, { id });
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

  it('answers 409 session_active while a live turn holds it', async () => {
    const response = await remove('held', { 'if-match': await etagOf('held') });

    expect(response.status).toBe(409);
    const error = await errorOf(response);
    expect(error.type).toBe('session_active');
    expect(error.message).toMatch(/^Cannot delete active session held/);
  });

  it('deletes with the ETag of the view the client saw: 200 naming the deleted streams', async () => {
    const response = await remove('root-2', { 'if-match': await etagOf('root') });

    expect(response.status).toBe(200);
    const body = await bodyOf(response, z.looseObject({ deleted: z.array(z.string()) }));
    expect(body).toMatchObject({ requestedId: 'root-2', rootId: 'root' });
    expect([...body.deleted].sort()).toEqual(['session-root', 'session-root-2', 'session-sub', 'session-subsub']);
    const again = await remove('root', { 'if-match': '*' });
    expect([again.status, again.headers.get('content-type')]).toEqual([410, 'application/problem+json; charset=utf-8']);
    expect(await again.json()).toMatchObject({ status: 410, code: 'session_deleted', type: 'urn:session-ledger:error:session_deleted' });
    expect((await fetch(`${service.url}/sessions/root`)).status).toBe(410);
    expect((await fetch(`${service.url}/sessions/br`)).status).toBe(200);
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
