import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLedger, newId } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { bodyOf, errorOf, servedSqlite } from '../support/http.js';

/**
 * The outside tester's reproduction: POST /sessions/:id/compress into an existing session, the
 * session's own id or a deleted one used to answer 409/410 after sealing the parent for good.
 */
describe('POST /sessions/:id/compress into a taken child id', () => {
  const served = servedSqlite();
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${served.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const rawTypes = async (id: string) =>
    (await bodyOf(await send('GET', `/sessions/${id}?view=raw`), z.object({ events: z.array(z.object({ type: z.string() })) }))).events.map((event) => event.type);
  const list = async () =>
    (await bodyOf(await send('GET', '/sessions?limit=50'), z.object({ sessions: z.array(z.object({ rootId: z.string(), tipId: z.string(), segments: z.array(z.string()), messages: z.number() })) }))).sessions;

  it.each([
    ['victim1', 'other', 409, 'duplicate'],
    ['victim2', 'victim2', 409, 'duplicate'],
    ['victim3', 'gone', 410, 'session_deleted'],
  ])('%s into %s: %i %s with nothing stored; the session takes writes and a fresh compress', async (victim, childId, status, type) => {
    await send('POST', '/sessions', { id: 'other' });
    await send('POST', '/sessions', { id: 'gone' });
    await send('DELETE', '/sessions/gone', undefined, { 'if-match': '*' });
    expect((await send('POST', '/sessions', { id: victim })).status).toBe(201);
    expect((await send('POST', `/sessions/${victim}/messages`, { role: 'user', content: 'hello' })).status).toBe(201);

    const refused = await send('POST', `/sessions/${victim}/compress`, { summary: 's', childId });
    expect(refused.status).toBe(status);
    expect((await errorOf(refused)).type).toBe(type);

    expect(await rawTypes(victim)).toEqual(['session.started', 'message.appended']);
    expect((await send('POST', `/sessions/${victim}/messages`, { role: 'user', content: 'more' })).status).toBe(201);
    const compressed = await send('POST', `/sessions/${victim}/compress`, { summary: 's', childId: `${victim}-new` });
    expect(compressed.status).toBe(201);
    expect(await bodyOf(compressed, z.object({ sessionId: z.string(), rootId: z.string() }))).toMatchObject({ sessionId: `${victim}-new`, rootId: victim });
  });

  it('a continuation into an existing session left by the old code: a fresh compress recovers it, and the list, reads, DELETE and audit follow', async () => {
    await send('POST', '/sessions', { id: 'bystander', title: 'unrelated' });
    await send('POST', '/sessions/bystander/messages', { role: 'user', content: 'unrelated message' });
    await send('POST', '/sessions', { id: 'victim' });
    await send('POST', '/sessions/victim/messages', { role: 'user', content: 'hello' });
    const continued = { childId: 'bystander', summary: 'old', summaryId: 'sum-old', continuedAt: '2026-03-01T10:00:00.000Z' };
    // Planted as the old code stored it, by another connection to the file (no raw surface writes a session stream).
    const store = openSqliteStore(served.env.SESSION_LEDGER_STORE.slice('sqlite:'.length));
    await createLedger(store).append('session-victim', [{ id: newId(), type: 'session.continued', data: continued, metadata: { schemaVersion: 1 } }]);
    await store.close();

    const sealed = await send('POST', '/sessions/victim/messages', { role: 'user', content: 'x' });
    expect(sealed.status).toBe(409);
    expect(await errorOf(sealed)).toMatchObject({ type: 'session_sealed', details: { tipId: 'victim' } });
    expect((await send('POST', '/sessions/victim/compress', { summary: 'new', childId: 'victim-next' })).status).toBe(201);
    expect((await send('POST', '/sessions/victim-next/messages', { role: 'user', content: 'after' })).status).toBe(201);

    const rows = await list();
    expect(rows.find((row) => row.rootId === 'victim')).toMatchObject({ tipId: 'victim-next', segments: ['victim', 'victim-next'], messages: 2 });
    expect(rows.find((row) => row.rootId === 'bystander')).toMatchObject({ tipId: 'bystander', segments: ['bystander'], messages: 1 });
    const shown = await bodyOf(await send('GET', '/sessions/victim'), z.object({ tipId: z.string(), messages: z.array(z.object({ content: z.string().nullable() })) }));
    expect(shown).toMatchObject({ tipId: 'victim-next', messages: [{ content: 'hello' }, { content: 'after' }] });
    expect((await send('DELETE', '/sessions/victim', undefined, { 'if-match': '*' })).status).toBe(200);
    expect((await send('GET', '/sessions/bystander')).status).toBe(200);
    expect(await bodyOf(await send('GET', '/audit/verify'), z.object({ ok: z.boolean() }))).toMatchObject({ ok: true });
  });
});
