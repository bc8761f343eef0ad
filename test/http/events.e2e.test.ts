import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { errorOf, readSse, startServer } from '../support/http.js';

describe('HTTP service: raw streams, errors, SSE', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    service = await startServer(env);
  });
  afterAll(async () => service?.stop());

  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('appends and reads a stream, with 409 on a stale expected revision', async () => {
    expect((await post('/streams/cart-1', { type: 'added', data: { sku: 'a' }, expectedRevision: 'no_stream' })).status).toBe(201);
    const stale = await post('/streams/cart-1', { type: 'added', data: { sku: 'b' }, expectedRevision: 'no_stream' });
    expect(stale.status).toBe(409);
    expect(await errorOf(stale)).toMatchObject({ type: 'wrong_expected_version', details: { stream: 'cart-1', actual: '0' } });
    const read = await (await fetch(`${service.url}/streams/cart-1`)).json();
    expect(read).toHaveLength(1);
  });

  it('a retried event (the same id) answers 200 with written: false and is stored once, as a retried session write', async () => {
    const event = { id: '7d1a5b1e-6a0c-4e59-9a43-3c1f0d7e2b01', type: 'added', data: { sku: 'r' } };
    const first = await post('/streams/cart-retry', event);
    expect(first.status).toBe(201);
    const again = await post('/streams/cart-retry', event);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ stream: 'cart-retry', written: false, nextExpectedRevision: 0 });
    expect(await (await fetch(`${service.url}/streams/cart-retry`)).json()).toHaveLength(1);
  });

  it('answers bad requests with a 4xx JSON error', async () => {
    const malformed = await fetch(`${service.url}/streams/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).type).toBe('invalid_input');
    expect((await post('/streams/x', { data: 1 })).status).toBe(400);
    expect((await fetch(`${service.url}/streams/never-written`)).status).toBe(404);
    expect((await fetch(`${service.url}/no/such/route`)).status).toBe(404);
  });

  it('an SSE client that reconnects with Last-Event-ID misses nothing', async () => {
    for (const n of [1, 2, 3]) await post(`/streams/feed-${n}`, { type: 'tick', data: { n } });
    const url = `${service.url}/subscribe?prefix=feed-`;
    const first = await readSse(url, { until: (events) => events.filter((e) => e.event === 'tick').length >= 2 });
    const seen = first.filter((e) => e.event === 'tick');
    const lastId = seen[seen.length - 1]!.id!;
    for (const n of [4, 5]) await post(`/streams/feed-${n}`, { type: 'tick', data: { n } });
    const second = await readSse(url, {
      lastEventId: lastId,
      until: (events) => events.filter((e) => e.event === 'tick').length >= 3,
    });
    const all = [...seen, ...second.filter((e) => e.event === 'tick')].map((e) => JSON.parse(e.data).data.n);
    expect(all).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses to bind a non-loopback address without a token', () => {
    const result = runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('without --token');
  });

  it("refuses --allowed-host '*' and --cors-origin '*' without a token: any web page could drive it (outside test, session 21)", () => {
    for (const flag of ['--allowed-host', '--cors-origin']) {
      const result = runCli(['serve', '--port', '0', flag, '*'], { env });
      expect({ flag, code: result.code, stderr: result.stderr }).toEqual({ flag, code: 2, stderr: `session-ledger: Refusing ${flag} '*' without --token: it lets any web page read and write the ledger\n` });
    }
  });

  // Outside test, session 23: each was served, and no request could ever pass it (every request 401, or the setting never matched).
  it.each([
    [['--token', ''], 'The token is empty'],
    [['--token', ' '], 'The token must be visible ASCII'],
    [['--host', '0.0.0.0', '--token', 'a\u001b'], 'The token must be visible ASCII'],
    [['--allowed-host', ''], 'Not a host to allow: ""'],
    [['--allowed-host', '\u001b]0;x\u0007'], 'Not a host to allow: "\\u001b]0;x\\u0007"'],
    [['--cors-origin', 'not a url'], 'Not an origin: "not a url"'],
    [['--cors-origin', 'https://a.example/path'], 'Not an origin: "https://a.example/path"'],
  ])('refuses a setting no request can satisfy: %j (exit 2, one line)', (args, message) => {
    const result = runCli(['serve', '--port', '0', ...args], { env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });

  it('requires the bearer token when one is set', async () => {
    const secured = await startServer(env, ['--token', 's3cret']);
    try {
      const refused = await fetch(`${secured.url}/health`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="session-ledger"');
      expect(((await refused.json()) as { code: string }).code).toBe('unauthorized');
      expect((await fetch(`${secured.url}/health`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      // The scheme is case-insensitive (RFC 9110), the token is not.
      for (const authorization of ['Bearer s3cret', 'bearer s3cret', 'BEARER  s3cret']) {
        expect((await fetch(`${secured.url}/health`, { headers: { authorization } })).status).toBe(200);
      }
      expect((await fetch(`${secured.url}/health`, { headers: { authorization: 'Bearer S3CRET' } })).status).toBe(401);
    } finally {
      await secured.stop();
    }
  });
});
