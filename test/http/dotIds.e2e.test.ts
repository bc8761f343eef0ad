import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { errorOf, startServer } from '../support/http.js';

/**
 * "." and ".." are path segments every URL parser resolves away (RFC 3986): a session, child,
 * message or turn given such an id could never be opened, exported or deleted by any page or client
 * (outside test, session 16: `/s/..` landed on the catalog). They are refused as new ids, 400.
 */
describe('ids that no URL can name (HTTP)', { timeout: 60_000 }, () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir('dot-ids-'), 'ledger.sqlite')}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  const post = (path: string, body: unknown) => fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    service = await startServer(env);
    expect((await post('/sessions', { id: 'plain' })).status).toBe(201);
  });
  afterAll(async () => service?.stop());

  it.each([
    ['a session', '/sessions', (id: string) => ({ id }), 'id'],
    ['a compression child', '/sessions/plain/compress', (id: string) => ({ summary: 's', childId: id }), 'childId'],
    ['a message', '/sessions/plain/messages', (id: string) => ({ id, role: 'user', content: 'x' }), 'id'],
    ['a turn', '/sessions/plain/turns', (id: string) => ({ turnId: id, ttl: '1m' }), 'turnId'],
  ])('refuses "." and ".." for %s with a one-line 400, and stores nothing', async (_what, path, bodyOf, field) => {
    for (const id of ['.', '..']) {
      const response = await post(path, bodyOf(id));
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error).toMatchObject({ type: 'invalid_input', details: { field } });
      // Refused by the body's schema, which publishes the rule (since session 31), naming the body's key.
      expect(error.message).toBe(`Invalid body at ${field}: cannot be "." or "..": URLs resolve them away (RFC 3986), so no address could name it`);
    }
    const raw = (await (await fetch(`${service.url}/sessions/plain?view=raw`)).json()) as { events: unknown[] };
    expect(raw.events).toHaveLength(1);
  });

  it('still takes ids with dots in them', async () => {
    expect((await post('/sessions', { id: '...' })).status).toBe(201);
    expect((await post('/sessions', { id: 'a.b' })).status).toBe(201);
  });
});
