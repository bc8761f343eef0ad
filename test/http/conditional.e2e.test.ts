import { describe, expect, it } from 'vitest';
import { rawRequest, servedSqlite } from '../support/http.js';

/** GET /sessions/:id (and its transcript) and If-None-Match as RFC 9110 §13.1.2 reads it: `*`, or a list, compared weakly. */
describe('HTTP: If-None-Match on a conversation', () => {
  const served = servedSqlite();
  const post = (path: string, body: unknown) =>
    rawRequest(served.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const get = (ifNoneMatch: string) => rawRequest(served.url, { path: '/sessions/inm-1', headers: { 'if-none-match': ifNoneMatch } });

  it('answers 304 for the ETag itself, a list holding it, its weak form and *; 200 for others and once it changed', async () => {
    expect((await post('/sessions', { id: 'inm-1' })).status).toBe(201);
    const etag = String((await rawRequest(served.url, { path: '/sessions/inm-1' })).headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const current = [etag, `"other", ${etag}`, `${etag},"other"`, `W/${etag}`, `W/"other" , W/${etag}`, '*', ' * '];
    for (const header of current) {
      const response = await get(header);
      expect({ header, status: response.status, etag: response.headers.etag, body: response.text }).toEqual({ header, status: 304, etag, body: '' });
    }
    const stale = ['"other"', `"${etag}"`, etag.slice(0, -2) + '"', `W/"other", "x"`];
    for (const header of stale) expect({ header, status: (await get(header)).status }).toEqual({ header, status: 200 });
    expect((await post('/sessions/inm-1/messages', { role: 'user', content: 'changed' })).status).toBe(201);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`]) expect({ header, status: (await get(header)).status }).toEqual({ header, status: 200 });
    expect((await get('*')).status).toBe(304);
  });

  it('the transcript carries the display ETag and answers 304 to it until the conversation changes', async () => {
    expect((await post('/sessions', { id: 'inm-2' })).status).toBe(201);
    expect((await post('/sessions/inm-2/messages', { role: 'user', content: 'first words' })).status).toBe(201);
    const transcript = (ifNoneMatch?: string) =>
      rawRequest(served.url, { path: '/sessions/inm-2/transcript', headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch } });
    const first = await transcript();
    expect(first.status).toBe(200);
    expect(first.text).toContain('first words');
    const etag = String(first.headers.etag);
    expect(etag).toBe(String((await rawRequest(served.url, { path: '/sessions/inm-2' })).headers.etag));
    for (const header of [etag, `W/${etag}`, '*']) {
      const response = await transcript(header);
      expect({ header, status: response.status, etag: response.headers.etag, body: response.text }).toEqual({ header, status: 304, etag, body: '' });
    }
    expect((await transcript('"other"')).status).toBe(200);
    expect((await post('/sessions/inm-2/messages', { role: 'user', content: 'second words' })).status).toBe(201);
    const changed = await transcript(etag);
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('second words');
    expect(changed.headers.etag).not.toBe(etag);
  });
});
