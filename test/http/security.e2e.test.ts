import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { rawRequest, startServer } from '../support/http.js';

/**
 * Issue 14, "safe by default": what a web page (DNS rebinding, a cross-site form or fetch) or a
 * malformed request could do to a loopback server started without a token, as `npm start` runs it.
 */
describe('HTTP service: safe by default', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  let port: string;
  beforeAll(async () => {
    service = await startServer(env);
    port = new URL(service.url).port;
  });
  afterAll(async () => service?.stop());

  const json = { 'content-type': 'application/json' };
  const sessionCount = () => runCli(['sessions', 'list', '--json', '--limit', '200'], { env }).json().sessions.length as number;
  const problemOf = (response: { headers: Record<string, unknown>; json: () => any }) => ({
    contentType: response.headers['content-type'],
    code: response.json().code,
  });

  it('answers only Host headers that name this server: loopback names or the bound address, with the port', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      const response = await rawRequest(service.url, { path: '/health', headers: { host } });
      expect({ host, status: response.status, nosniff: response.headers['x-content-type-options'] }).toEqual({ host, status: 200, nosniff: 'nosniff' });
    }
    for (const host of ['attacker.rebind.example', `attacker.rebind.example:${port}`, `127.evil.example:${port}`, 'localhost:1', `localhost.evil.example:${port}`]) {
      const response = await rawRequest(service.url, { path: '/sessions', headers: { host } });
      expect({ host, status: response.status, ...problemOf(response) }).toEqual({
        host,
        status: 403,
        contentType: 'application/problem+json; charset=utf-8',
        code: 'host_not_allowed',
      });
    }
    const before = sessionCount();
    const rebound = await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { host: `attacker.rebind.example:${port}`, ...json }, body: '{}' });
    expect(rebound.status).toBe(403);
    expect(sessionCount()).toBe(before);
  });

  it('answers the URL it prints when bound to an IPv4-mapped IPv6 address, as curl and a browser spell it', async () => {
    const mapped = await startServer(env, ['--host', '::ffff:127.0.0.1']);
    try {
      const { port: mappedPort } = new URL(mapped.url);
      expect(mapped.url).toBe(`http://[::ffff:127.0.0.1]:${mappedPort}`);
      // fetch sends the WHATWG spelling ([::ffff:7f00:1]); curl -g sends the URL's as printed.
      expect((await fetch(`${mapped.url}/health`)).status).toBe(200);
      for (const host of [`[::ffff:127.0.0.1]:${mappedPort}`, `[::ffff:7f00:1]:${mappedPort}`, `127.0.0.1:${mappedPort}`]) {
        const response = await rawRequest(`http://127.0.0.1:${mappedPort}`, { path: '/health', headers: { host } });
        expect({ host, status: response.status }).toEqual({ host, status: 200 });
      }
    } finally {
      await mapped.stop();
    }
  });

  it('accepts more Host names only when told to with --allowed-host', async () => {
    const extra = await startServer(env, ['--allowed-host', 'ledger.internal', '--allowed-host', 'proxy.example:443']);
    try {
      const extraPort = new URL(extra.url).port;
      const status = async (host: string) => (await rawRequest(extra.url, { path: '/health', headers: { host } })).status;
      expect(await status(`ledger.internal:${extraPort}`)).toBe(200);
      // A reverse proxy passes on the browser's Host, without this server's port.
      expect(await status('ledger.internal')).toBe(200);
      expect(await status('ledger.internal:8443')).toBe(403);
      expect(await status('proxy.example:443')).toBe(200);
      expect(await status('proxy.example')).toBe(403);
      expect(await status(`other.internal:${extraPort}`)).toBe(403);
      expect(await status('other.internal')).toBe(403);
      // The loopback names keep their port (bare only on port 80).
      expect(await status('localhost')).toBe(403);
      // A page the proxy serves over HTTPS writes as same-origin; another origin does not (outside test, session 21).
      const write = async (origin: string) =>
        (await rawRequest(extra.url, { method: 'POST', path: '/sessions', headers: { host: 'ledger.internal', origin, ...json }, body: '{}' })).status;
      expect(await write('https://ledger.internal')).toBe(201);
      expect(await write('https://other.internal')).toBe(403);
      expect(await write('ftp://ledger.internal')).toBe(403);
    } finally {
      await extra.stop();
    }
  });

  it('refuses state-changing requests from another origin (403, nothing stored); same origin and no Origin are fine', async () => {
    const before = sessionCount();
    for (const [method, path] of [['POST', '/sessions'], ['POST', '/streams/x'], ['DELETE', '/sessions/x'], ['PATCH', '/sessions/x/messages/m']] as const) {
      const body = method === 'DELETE' ? undefined : '{"type":"t","data":1}';
      const response = await rawRequest(service.url, { method, path, headers: { origin: 'http://evil.example', ...json, 'if-match': '*' }, body });
      expect({ method, path, status: response.status, code: response.json().code }).toEqual({ method, path, status: 403, code: 'origin_not_allowed' });
    }
    expect((await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { origin: 'null', ...json }, body: '{}' })).status).toBe(403);
    const noOrigin = await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { 'sec-fetch-site': 'cross-site', ...json }, body: '{}' });
    expect([noOrigin.status, noOrigin.json().code]).toEqual([403, 'origin_not_allowed']);
    expect(sessionCount()).toBe(before);
    const same = await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { origin: `http://127.0.0.1:${port}`, ...json }, body: '{}' });
    expect(same.status).toBe(201);
    expect((await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: json, body: '{}' })).status).toBe(201);
    const read = await rawRequest(service.url, { path: '/sessions', headers: { origin: 'http://evil.example' } });
    expect([read.status, read.headers['access-control-allow-origin']]).toEqual([200, undefined]);
  });

  // Outside test, session 35 (helper-96 F1): a foreign page's no-cors GET /search held every search for minutes.
  it("refuses a browser's reads for another site's page (Sec-Fetch-Site), but for a link followed; same origin and non-browser clients read", async () => {
    const foreign = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };
    for (const path of ['/search?q=hello', '/sessions', '/subscribe']) {
      const response = await rawRequest(service.url, { path, headers: foreign });
      expect({ path, status: response.status, code: response.json().code }).toEqual({ path, status: 403, code: 'origin_not_allowed' });
    }
    const sameSite = await rawRequest(service.url, { path: '/sessions', headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', origin: 'http://localhost:3000' } });
    expect(sameSite.status).toBe(403);
    const link = await rawRequest(service.url, { path: '/', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } });
    expect(link.status).toBe(200);
    expect((await rawRequest(service.url, { path: '/sessions', headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' } })).status).toBe(200);
    expect((await rawRequest(service.url, { path: '/sessions' })).status).toBe(200);
    const app = 'https://app.example';
    const cors = await startServer(env, ['--cors-origin', app]);
    try {
      const read = await rawRequest(cors.url, { path: '/sessions', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', origin: app } });
      expect([read.status, read.headers['access-control-allow-origin']]).toEqual([200, app]);
    } finally {
      await cors.stop();
    }
  });

  it('speaks CORS only to the origins given with --cors-origin', async () => {
    const app = 'https://app.example';
    const cors = await startServer(env, ['--cors-origin', app]);
    try {
      const preflight = await rawRequest(cors.url, {
        method: 'OPTIONS',
        path: '/sessions',
        headers: { origin: app, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': app, allow: 'POST, GET, HEAD, OPTIONS' });
      expect(String(preflight.headers['access-control-allow-headers'])).toContain('Content-Type');
      const write = await rawRequest(cors.url, { method: 'POST', path: '/sessions', headers: { origin: app, ...json }, body: '{}' });
      expect([write.status, write.headers['access-control-allow-origin']]).toEqual([201, app]);
      const other = await rawRequest(cors.url, { method: 'POST', path: '/sessions', headers: { origin: 'https://other.example', ...json }, body: '{}' });
      expect([other.status, other.headers['access-control-allow-origin']]).toEqual([403, undefined]);
    } finally {
      await cors.stop();
    }
  });

  it('requires Content-Type application/json on a body (415) and refuses bodies over 16 MiB (413)', async () => {
    const before = sessionCount();
    const types: Array<Record<string, string>> = [{ 'content-type': 'text/plain;charset=json' }, {}, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'application/json; charset=latin1' }, { 'content-type': 'application/json;foo=bar' }, { 'content-type': 'application/json; charset=utf-8; charset=latin1' }];
    for (const headers of types) {
      const response = await rawRequest(service.url, { method: 'POST', path: '/sessions', headers, body: '{}' });
      expect({ headers, status: response.status, code: response.json().code }).toEqual({ headers, status: 415, code: 'unsupported_media_type' });
    }
    // A coded body was read as JSON text: gzip bytes gave 400 "not valid UTF-8", a plain one with the header 201 (outside test, session 21).
    for (const coding of ['gzip', 'br']) {
      const coded = await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { ...json, 'content-encoding': coding }, body: '{}' });
      expect({ coding, status: coded.status, code: coded.json().code, accept: coded.headers['accept-encoding'] }).toEqual({ coding, status: 415, code: 'unsupported_media_type', accept: 'identity' });
    }
    // A transfer coding other than chunked: its plain bytes were stored (201) though declared coded (outside test, session 27).
    for (const coding of ['gzip, chunked', 'x-custom, chunked']) {
      const coded = await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { ...json, 'transfer-encoding': coding }, body: '{}' });
      expect({ coding, status: coded.status, code: coded.json().code }).toEqual({ coding, status: 501, code: 'not_implemented' });
    }
    expect(sessionCount()).toBe(before);
    expect((await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { ...json, 'transfer-encoding': 'chunked' }, body: '{}' })).status).toBe(201);
    expect((await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { ...json, 'content-encoding': 'identity' }, body: '{}' })).status).toBe(201);
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'Application/JSON; charset=utf8']) {
      expect((await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { 'content-type': type }, body: '{}' })).status).toBe(201);
    }
    const big = Buffer.alloc(17 * 1024 * 1024, 0x20);
    const large = await rawRequest(service.url, { method: 'POST', path: '/streams/big', headers: json, body: big });
    expect([large.status, large.json().code]).toEqual([413, 'content_too_large']);
  });

  it('answers malformed paths, numbers and deep JSON with a 4xx problem, never a 500', async () => {
    const cases: Array<[string, string, string | undefined, number]> = [
      ['GET', '/sessions/%ZZ', undefined, 400],
      ['GET', '/streams/%E0%A4%A', undefined, 400],
      ['GET', '/sessions/a%0Ab', undefined, 400],
      ['GET', '/all?from=18446744073709551616', undefined, 400],
      ['GET', '/all?from=18446744073709551615', undefined, 400],
      ['GET', '/all?from=-1', undefined, 400],
      ['GET', '/all?from=1e3', undefined, 400],
      ['GET', '/all?max=abc', undefined, 400],
      ['GET', '/all?from=1&from=2', undefined, 400],
      ['GET', '/streams/x?from=99999999999999999999999', undefined, 400],
      ['GET', '/subscribe?after=18446744073709551616', undefined, 400],
      // A query that is not percent-encoded UTF-8 (a lone surrogate's bytes, a bad escape) was read as U+FFFD or as itself: 200.
      ['GET', '/search?q=%ED%A0%80abc', undefined, 400],
      ['GET', '/search?q=abc%ZZ', undefined, 400],
      ['GET', '/sessions?source=%C3', undefined, 400],
      ['POST', '/streams/deep', `{"type":"t","data":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 400],
      ['POST', '/sessions', '{"title": "\u0000', 400],
      ['POST', '/streams/x', '{"type":"t","data":1,"expectedRevision":"18446744073709551616"}', 400],
      ['POST', '/sessions', Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1'), 400],
      // A body of JSON null was taken as {}: a session was started (outside test, session 21).
      ['POST', '/sessions', 'null', 400],
      ['POST', '/sessions/nobody/end', 'null', 400],
      // The number rule of every route, and no control character in a name (outside test, session 21).
      ['GET', '/audit/leaves/9223372036854775808/proof', undefined, 400],
      ['GET', '/audit/leaves/00000000000000000001/proof', undefined, 400],
      ['GET', '/audit/verify?stream=%00', undefined, 400],
      ['GET', '/audit/verify?stream=%C2%9F', undefined, 400],
      ['GET', '/subscribe?type=%0A', undefined, 400],
      ['GET', '/subscribe?prefix=%0A', undefined, 400],
      ['GET', '/sessions/x/events?type=a%0Db', undefined, 400],
      // A repeated key: the last one was stored and the first dropped, under a 201 (outside test, session 21).
      ['POST', '/sessions', '{"title":"a","title":"b"}', 400],
      ['POST', '/streams/dupk', '{"type":"t","data":{"k":1,"k":2}}', 400],
    ];
    for (const [method, path, body, status] of cases) {
      const response = await rawRequest(service.url, { method, path, headers: body === undefined ? {} : { ...json }, body });
      expect({ method, path, status: response.status, contentType: response.headers['content-type'] }).toEqual({
        method,
        path,
        status,
        contentType: 'application/problem+json; charset=utf-8',
      });
    }
    expect((await rawRequest(service.url, { path: '/health' })).status).toBe(200);
    // Well-formed escapes and '+' still read as before.
    expect((await rawRequest(service.url, { path: '/search?q=caf%C3%A9+au+lait' })).json()).toMatchObject({ query: 'café au lait' });
  });
});
