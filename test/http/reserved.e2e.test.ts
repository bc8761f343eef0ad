import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { startServer } from '../support/http.js';

describe('POST /streams/:stream on the reserved stream families', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    service = await startServer(env);
  });
  afterAll(async () => service?.stop());

  const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(`${service.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body });
  const refusedWith = async (response: Response, text: string) => {
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { type: string; message: string } };
    expect(error.type).toBe('invalid_input');
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toContain(text);
  };

  it('no raw session event, bogus or valid, is taken (400 in one line); the session stays readable and deletable', async () => {
    expect((await send('POST', '/sessions', JSON.stringify({ id: 'X' }))).status).toBe(201);
    expect((await send('POST', '/sessions/X/messages', JSON.stringify({ role: 'user', content: 'hello' }))).status).toBe(201);

    await refusedWith(await send('POST', '/streams/session-X', JSON.stringify({ type: 'bogus', data: {} })), '"bogus"');
    const message = { messageId: 'm9', role: 'user', content: 'raw', timestamp: new Date().toISOString() };
    await refusedWith(await send('POST', '/streams/session-X', JSON.stringify({ type: 'message.appended', data: message })), 'written only through the sessions API');
    await refusedWith(await send('POST', '/streams/memory-default', JSON.stringify({ type: 'memory.entry_added', data: { entryId: 'e1', target: 'user', content: 'x' } })), 'written only through the memory ledger');
    expect((await send('GET', '/memory/entries?target=user')).status).toBe(200);
    expect(JSON.stringify(await (await send('GET', '/sessions/X?view=raw')).json())).not.toContain('m9');

    const shown = await send('GET', '/sessions/X');
    expect(shown.status).toBe(200);
    expect(JSON.stringify(await shown.json())).toContain('hello');
    expect((await send('DELETE', '/sessions/X', undefined, { 'if-match': '*' })).status).toBe(200);
  });

  it('a forged ledger-audit record, a memory event of no memory type, a lone surrogate or a control character: 400', async () => {
    const audit = async () => (await send('GET', '/streams/ledger-audit')).text();
    const before = await audit();
    await refusedWith(await send('POST', '/streams/ledger-audit', JSON.stringify({ type: 'retention.deleted', data: { deleted: ['session-W'], complete: true } })), 'retention.deleted');
    await refusedWith(await send('POST', '/streams/memory-default', JSON.stringify({ type: 'bogus', data: {} })), '"bogus"');
    await refusedWith(await send('POST', '/streams/orders', '{"type":"placed\\ud800","data":{}}'), 'lone surrogate');
    await refusedWith(await send('POST', '/streams/orders', '{"type":"placed\\u0007","data":{}}'), 'control character');
    // An id is a UUID, as the published schema says since session 29 (F3): one with a control character is none.
    await refusedWith(await send('POST', '/streams/orders', '{"type":"placed","id":"x\\u0000","data":{}}'), 'must be a UUID');
    expect(await audit()).toBe(before);
    expect((await send('GET', '/streams/orders')).status).toBe(404);
  });
});
