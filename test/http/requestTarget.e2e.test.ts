import { describe, expect, it } from 'vitest';
import { rawBytes, servedSqlite } from '../support/http.js';

/**
 * Request lines and headers a browser never sends but a client, a proxy or an attacker can (outside
 * test, session 21): each gets a defined answer, and none slips past the Host allow-list.
 */
describe('HTTP: request-target forms, repeated headers and Expect: 100-continue', () => {
  const service = servedSqlite();
  const host = () => new URL(service.url).host;

  /** The status line and the parsed problem (or null) of each answer in a raw exchange, in order. */
  const answers = (text: string) =>
    text
      .split(/(?=HTTP\/1\.1 \d{3} )/)
      .filter(Boolean)
      .map((part) => {
        const [head, body] = part.split('\r\n\r\n');
        return { status: Number(head!.slice(9, 12)), head: head!, body: body ? (JSON.parse(body) as Record<string, unknown>) : null };
      });
  const exchange = async (request: string) => answers(await rawBytes(service.url, request));

  it('absolute form: the target names the host the allow-list judges, not the Host header (RFC 9112 §3.2.2)', async () => {
    const [good] = await exchange(`GET http://${host()}/health HTTP/1.1\r\nHost: rebind.example\r\nConnection: close\r\n\r\n`);
    expect(good!.status).toBe(200);
    const [rebound] = await exchange(`GET http://rebind.example/health HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expect(rebound!.status).toBe(403);
    expect(rebound!.body).toMatchObject({ code: 'host_not_allowed' });
    const [write] = await exchange(`POST http://rebind.example/sessions HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    expect(write!.status).toBe(403);
    const [userinfo] = await exchange(`GET http://x@${host()}/health HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expect(userinfo!.status).toBe(400);
  });

  it('asterisk form: OPTIONS * lists the methods the server answers; * with another method is 400; a foreign Host still 403', async () => {
    const [options] = await exchange(`OPTIONS * HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expect(options!.status).toBe(204);
    // The methods of the routes (no route takes PUT), as the OpenAPI document lists them.
    expect(options!.head.toLowerCase()).toContain('allow: get, head, post, patch, delete, options');
    const [get] = await exchange(`GET * HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expect(get!.status).toBe(400);
    expect(get!.body).toMatchObject({ code: 'malformed_request' });
    const [foreign] = await exchange(`OPTIONS * HTTP/1.1\r\nHost: rebind.example\r\nConnection: close\r\n\r\n`);
    expect(foreign!.status).toBe(403);
  });

  it('CONNECT is 405 and the connection closes (it was left open with nothing sent)', async () => {
    const [connect] = await exchange(`CONNECT ${host()} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`);
    expect(connect!.status).toBe(405);
    expect(connect!.body).toMatchObject({ code: 'method_not_allowed' });
    expect(connect!.head).toContain('Allow: GET, HEAD, POST, PATCH, DELETE, OPTIONS');
  });

  it('Host or Content-Type sent twice is 400 and nothing is written (the first one was read)', async () => {
    const [hosts] = await exchange(`GET /health HTTP/1.1\r\nHost: ${host()}\r\nHost: rebind.example\r\nConnection: close\r\n\r\n`);
    expect(hosts!.status).toBe(400);
    const body = JSON.stringify({ id: 'twice-typed' });
    const [types] = await exchange(
      `POST /sessions HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(types!.status).toBe(400);
    expect(types!.body!.detail).toBe('The request sends Content-Type more than once');
    const [read] = await exchange(`GET /sessions/twice-typed HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expect(read!.status).toBe(404);
  });

  it('Expect: 100-continue is answered only once the headers pass: a refusal comes alone, an accepted body after 100', async () => {
    const head = (path: string, type: string, extra = '') =>
      `POST ${path} HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: ${type}\r\nExpect: 100-continue\r\nContent-Length: 2\r\n${extra}\r\n`;
    for (const [request, status] of [
      [head('/sessions', 'text/plain'), 415],
      [head('/no-such-route', 'application/json'), 404],
      [head('/sessions', 'application/json', 'Origin: https://attacker.example\r\n'), 403],
      [head('/sessions', 'application/json').replace('Content-Length: 2', `Content-Length: ${17 * 1024 * 1024}`), 413],
    ] as const) {
      const got = await exchange(request);
      expect(got.map((answer) => answer.status)).toEqual([status]);
    }
    const accepted = await exchange(`${head('/sessions', 'application/json', 'Connection: close\r\n')}{}`);
    expect(accepted.map((answer) => answer.status)).toEqual([100, 201]);
    // The field is a list of case-insensitive tokens: 100-continue twice, in any case, is still only 100-continue.
    const spelled = await exchange(`${head('/sessions', 'application/json', 'Connection: close\r\n').replace('Expect: 100-continue', 'Expect: 100-Continue ,100-continue')}{}`);
    expect(spelled.map((answer) => answer.status)).toEqual([100, 201]);
  });

  it('a 404 repeats at most 120 characters of an unknown path', async () => {
    const [missing] = await exchange(`GET /${'a'.repeat(5000)} HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expect(missing!.status).toBe(404);
    expect(missing!.body!.detail).toBe(`No route for GET /${'a'.repeat(119)}…`);
  });
});
