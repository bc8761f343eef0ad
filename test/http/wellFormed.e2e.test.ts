import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { errorOf, startServer } from '../support/http.js';

/**
 * A JSON body is valid UTF-8 even when it escapes a lone surrogate ("\ud800"); JSON.parse then makes
 * one. Every route refuses such a body with a 400 problem+json before its handler runs, so nothing
 * is stored (SQLite would keep U+FFFD under a hash over the surrogate).
 */
describe('HTTP: bodies with a lone surrogate are 400 on every route, before anything is stored', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    service = await startServer(env);
  });
  afterAll(async () => service?.stop());

  const send = (method: string, path: string, body: string) =>
    fetch(`${service.url}${path}`, { method, headers: { 'content-type': 'application/json', 'if-match': '*' }, body });
  const everything = async () => (await fetch(`${service.url}/all`)).text();
  const refused = async (response: Response, at: string) => {
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const error = await errorOf(response);
    expect(error.type).toBe('invalid_input');
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toContain(`the request body (at ${at}) holds a string that is not well-formed UTF-16 (a lone surrogate)`);
  };

  // Outside test, session 23: "Not a JSON number: Infinity", naming no place.
  it('a number past a double (1e400) is 400 naming where, on a raw append and a message, and nothing is stored', async () => {
    const before = await everything();
    for (const [path, body, at] of [
      ['/streams/big', '{"type":"t","data":{"a":1e400}}', '$.data.a'],
      ['/sessions/big/messages', '{"role":"user","content":"x","extra":{"n":-1e999}}', '$.extra.n'],
    ] as const) {
      const response = await send('POST', path, body);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toContain(`the request body (at ${at} (a number)) holds a number too large for JSON to read as one`);
    }
    expect(await everything()).toBe(before);
  });

  it('POST /streams/poison {"type":"x\\ud800"} is 400 and the store is unchanged', async () => {
    const before = await everything();
    await refused(await send('POST', '/streams/poison', '{"type":"x\\ud800","data":{}}'), '$.type');
    expect(await everything()).toBe(before);
    expect((await fetch(`${service.url}/streams/poison`)).status).toBe(404);
  });

  it('a whole number JSON would change (past 2^53) is 400 naming it, never acknowledged and stored changed; one it keeps is stored', async () => {
    const before = await everything();
    for (const [path, body] of [
      ['/streams/numbers', '{"type":"counted","data":{"n":9007199254740993}}'],
      ['/streams/numbers', '{"type":"counted","data":[18446744073709551615]}'],
      ['/streams/numbers', '{"type":"counted","data":{},"metadata":{"seq":-12345678901234567890123}}'],
      ['/sessions', '{"id":"big","metadata":{"n":9007199254740993}}'],
      // The same numbers with a fraction or an exponent were answered 201 and stored changed (outside test, session 29, F1).
      ['/streams/numbers', '{"type":"counted","data":9007199254740993.0}'],
      ['/streams/numbers', '{"type":"counted","data":{"n":9.007199254740993e15}}'],
      ['/sessions/big/messages', '{"role":"user","content":"x","extra":{"n":-9007199254740993e0}}'],
      // A fraction past 2^53 was stored with another whole part, 123456789012345680 (outside test, session 31, F1).
      ['/streams/numbers', '{"type":"counted","data":1234567890123456789e-1}'],
      ['/streams/numbers', '{"type":"counted","data":{"n":123456789012345678.9}}'],
    ] as const) {
      const response = await send('POST', path, body);
      expect({ path, body, status: response.status }).toEqual({ path, body, status: 400 });
      const error = await errorOf(response);
      expect(error.message.split('\n')).toHaveLength(1);
      expect(error.message).toMatch(/holds the number -?[\d.e-]+, which JSON keeps only as .*: send it as a string/);
    }
    expect(await everything()).toBe(before);
    const kept = await send('POST', '/streams/numbers', '{"type":"counted","data":{"n":9007199254740992,"s":"9007199254740993"}}');
    expect(kept.status).toBe(201);
    expect(((await (await fetch(`${service.url}/streams/numbers`)).json()) as Array<{ data: unknown }>)[0]!.data).toEqual({ n: 9007199254740992, s: '9007199254740993' });
  });

  it("POST /streams/:stream with a stream name or type beginning with $ (EventStoreDB's own) is 400 and the store is unchanged", async () => {
    const before = await everything();
    for (const [path, type] of [['/streams/%24all', 'said'], ['/streams/%24%24chat', 'said'], ['/streams/chat', '$metadata']]) {
      const response = await send('POST', path!, JSON.stringify({ type, data: {} }));
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect((await errorOf(response)).message).toContain("EventStoreDB's own");
    }
    expect(await everything()).toBe(before);
  });

  it('sessions, messages, rewrites, compaction, turns and memory: the same 400 naming the field', async () => {
    expect((await send('POST', '/sessions', JSON.stringify({ id: 's', title: 'fine' }))).status).toBe(201);
    expect((await send('POST', '/sessions/s/messages', JSON.stringify({ id: 'm1', role: 'user', content: 'hello' }))).status).toBe(201);
    const before = await everything();
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/sessions', { id: 't', title: 'x\ud800' }, '$.title'],
      ['POST', '/sessions/s/messages', { role: 'user', content: '\udc00' }, '$.content'],
      ['POST', '/sessions/s/messages', { role: 'assistant', content: null, toolCalls: [{ id: 'c', function: { name: '\ud800' } }] }, '$.toolCalls[0].function.name'],
      ['PATCH', '/sessions/s/messages/m1', { content: 'a\ud800' }, '$.content'],
      ['POST', '/sessions/s/compact', { throughMessageId: 'm1', summary: '\udc00' }, '$.summary'],
      ['POST', '/sessions/s/compress', { summary: '\udc00' }, '$.summary'],
      ['POST', '/sessions/s/turns', { owner: '\ud800' }, '$.owner'],
      ['POST', '/memory/apply', [{ op: 'add', target: 'user', content: 'tea \ud800' }], '$[0].content'],
      ['POST', '/streams/orders', { type: 'placed', data: { ['k\udc00']: 1 } }, '$.data (a key)'],
    ];
    for (const [method, path, body, at] of cases) await refused(await send(method, path, JSON.stringify(body)), at);
    expect(await everything()).toBe(before);
  });

  it('a key named __proto__ inside any body is 400 naming it, never acknowledged and then dropped on read', async () => {
    const before = await everything();
    const cases: Array<[string, string, string]> = [
      ['/streams/s1', '{"type":"t","data":{"__proto__":{"x":1},"keep":2}}', '$.data.__proto__'],
      ['/streams/s1', '{"type":"t","data":{},"metadata":{"__proto__":{"x":1}}}', '$.metadata.__proto__'],
      ['/sessions/s/messages', '{"role":"assistant","content":null,"toolCalls":[{"__proto__":{"x":1},"id":"c1","function":{"name":"f","arguments":"{}"}}]}', '$.toolCalls[0].__proto__'],
      ['/sessions/s/messages', '{"role":"user","content":"hi","tokenCounts":{"__proto__":5,"in":3}}', '$.tokenCounts.__proto__'],
    ];
    for (const [path, body, at] of cases) {
      const response = await send('POST', path, body);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toBe(`Refused: the request body (at ${at}) holds a key named "__proto__", which JavaScript readers drop; nothing was stored`);
    }
    expect(await everything()).toBe(before);
  });
});
