import { describe, expect, it } from 'vitest';
import { rawRequest, servedSqlite } from '../support/http.js';

/**
 * JSON answers and problems carry their Content-Length, so Node writes each as one string instead
 * of chunked framing (a writev of four buffers); the length is the body's in bytes, not characters.
 */
describe('HTTP: JSON answers and problems are sent with their Content-Length, not chunked', () => {
  const service = servedSqlite();

  const post = (path: string, body: unknown) =>
    rawRequest(service.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const framedByLength = (answer: Awaited<ReturnType<typeof rawRequest>>) => {
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
  };

  it('a 201 of the writer API, a 200 read with a multi-byte title, and 404 and 400 problems', async () => {
    const started = await post('/sessions', { id: 'framed', title: 'größe ✓ 🎉' });
    expect(started.status).toBe(201);
    framedByLength(started);
    const appended = await post('/sessions/framed/messages', { id: 'm1', role: 'user', content: 'naïve — ünïcode' });
    expect(appended.status).toBe(201);
    framedByLength(appended);
    const read = await rawRequest(service.url, { path: '/sessions/framed' });
    expect(read.status).toBe(200);
    expect(read.text).toContain('naïve — ünïcode');
    framedByLength(read);
    const missing = await rawRequest(service.url, { path: '/sessions/none-such' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    framedByLength(missing);
    const refused = await post('/sessions/framed/messages', { role: 'user', content: 'x', extra: true });
    expect(refused.status).toBe(400);
    framedByLength(refused);
  });
});
