import { describe, expect, it } from 'vitest';
import { rawRequest, servedSqlite } from '../support/http.js';

/** The browser's paths are paths of the service like any other: OPTIONS names their methods, others are 405. */
describe('HTTP: the session browser paths answer OPTIONS and 405 like the API', () => {
  const served = servedSqlite(['--cors-origin', 'https://app.example']);
  const PAGES = ['/', '/s/some-session', '/assets/app.js', '/assets/style.css'];

  it('answers OPTIONS 204 with Allow GET, HEAD, OPTIONS (and a CORS preflight for an allowed origin)', async () => {
    for (const path of PAGES) {
      const get = await rawRequest(served.url, { path });
      const options = await rawRequest(served.url, { method: 'OPTIONS', path, headers: { origin: 'https://app.example' } });
      expect({ path, get: get.status, options: options.status, allow: options.headers.allow, preflight: options.headers['access-control-allow-methods'] }).toEqual({
        path,
        get: 200,
        options: 204,
        allow: 'GET, HEAD, OPTIONS',
        preflight: 'GET, HEAD, OPTIONS',
      });
    }
  });

  it('answers another method 405 with Allow, and an unknown asset 404 for OPTIONS too', async () => {
    for (const [method, path] of [['POST', '/'], ['DELETE', '/s/some-session'], ['PUT', '/assets/app.js']] as const) {
      const response = await rawRequest(served.url, { method, path });
      expect({ method, path, status: response.status, allow: response.headers.allow, code: response.json().code }).toEqual({
        method,
        path,
        status: 405,
        allow: 'GET, HEAD, OPTIONS',
        code: 'method_not_allowed',
      });
    }
    expect((await rawRequest(served.url, { method: 'OPTIONS', path: '/assets/absent.js' })).status).toBe(404);
  });
});
