import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { rawBytes as raw, startServer } from '../support/http.js';

describe("HTTP: requests Node's parser refuses get a problem+json like every other 4xx", () => {
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` });
  });
  afterAll(async () => service?.stop());

  it.each([
    ['a Content-Length that is not a number', 'POST /streams/s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: x\r\n\r\n{}', 400, 'malformed_request'],
    ['a path of 70 KB', `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 431, 'headers_too_large'],
  ])('%s', async (_what, request, status, code) => {
    const answer = await raw(service.url, request);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`);
    expect(head).toContain('Content-Type: application/problem+json; charset=utf-8');
    expect(JSON.parse(body!)).toMatchObject({ status, code, type: `urn:session-ledger:error:${code}` });
  });
});
