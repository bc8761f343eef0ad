import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../support/cli.js';
import { rawRequest, readRawSse, startServer } from '../support/http.js';

/** The highest whole number below 2^63, the documented bound of every position. */
const HIGHEST = '9223372036854775807';
const PAST = '9223372036854775808';

describe('HTTP: where a Server-Sent Events stream resumes', () => {
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` });
    const post = (path: string, body: unknown) =>
      rawRequest(service.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('/streams/pos-1', { type: 'tick', data: 1 });
    await post('/sessions', { id: 'pos-session' });
  });
  afterAll(async () => service?.stop());

  const caughtUpAt = (text: string) => /event: caught-up\ndata: (.*)\n/.exec(text)?.[1];

  it('resumes after the highest position (2^63 - 1): caught up at once, no error, the stream stays open; 2^63 is a 400 problem', async () => {
    const cases: Array<{ path: string; headers: Record<string, string> }> = [
      { path: '/subscribe', headers: { 'last-event-id': HIGHEST } },
      { path: `/subscribe?after=${HIGHEST}`, headers: {} },
      { path: `/sessions/pos-session/events?after=${HIGHEST}`, headers: {} },
      { path: '/sessions/pos-session/events', headers: { 'last-event-id': HIGHEST } },
    ];
    for (const { path, headers } of cases) {
      // Closed by this reader once caught up: a stream the server ended first never gets there.
      let closedByReader = false;
      const { status, text } = await readRawSse(`${service.url}${path}`, {
        headers,
        until: (seen) => (closedByReader = caughtUpAt(seen) !== undefined && seen.endsWith('\n\n')),
      });
      expect({ path, status, caughtUp: caughtUpAt(text), error: text.includes('event: error'), ended: !closedByReader }).toEqual({
        path,
        status: 200,
        caughtUp: `{"position":"${HIGHEST}"}`,
        error: false,
        ended: false,
      });
    }
    // One past the bound is refused before any stream starts, in the query and in Last-Event-ID alike.
    for (const [path, headers] of [
      [`/subscribe?after=${PAST}`, {}],
      ['/subscribe', { 'last-event-id': PAST }],
      [`/sessions/pos-session/events?after=${PAST}`, {}],
    ] as const) {
      const response = await rawRequest(service.url, { path, headers });
      expect({ path, status: response.status, type: response.headers['content-type'], code: response.json().code }).toEqual({
        path,
        status: 400,
        type: 'application/problem+json; charset=utf-8',
        code: 'invalid_input',
      });
    }
  });

  it('lets a good Last-Event-ID win over any ?after (empty, malformed, too large or another position); a bad header is 400', async () => {
    const ticks = async (path: string, lastEventId: string) => {
      const { status, text } = await readRawSse(`${service.url}${path}`, { headers: { 'last-event-id': lastEventId }, until: (seen) => caughtUpAt(seen) !== undefined });
      return { status, ids: text.split('\n').filter((line) => line.startsWith('id: ')) };
    };
    for (const after of ['', 'soon', PAST, '0', `1&after=2`]) {
      const path = `/subscribe?prefix=pos-&after=${after}`;
      expect({ path, ...(await ticks(path, '0')) }).toEqual({ path, status: 200, ids: ['id: 1'] });
      expect({ path, ...(await ticks(path, HIGHEST)) }).toEqual({ path, status: 200, ids: [] });
    }
    for (const path of ['/subscribe', '/subscribe?after=0', '/sessions/pos-session/events?after=']) {
      const response = await rawRequest(service.url, { path, headers: { 'last-event-id': 'yesterday' } });
      expect({ path, status: response.status, field: response.json().details.field }).toEqual({ path, status: 400, field: 'Last-Event-ID' });
    }
  });

  it('documents ?after and Last-Event-ID with one schema: the position', async () => {
    const doc = (await rawRequest(service.url, { path: '/openapi.json' })).json();
    for (const path of ['/subscribe', '/sessions/{id}/events']) {
      const parameters = doc.paths[path].get.parameters as Array<{ name: string; in: string; schema: { type: string; pattern: string; description: string } }>;
      const [after, header] = [['after', 'query'], ['Last-Event-ID', 'header']].map(([name, place]) => {
        const { type, pattern, description } = parameters.find((parameter) => parameter.name === name && parameter.in === place)!.schema;
        return { type, pattern, bound: description.includes('below 2^63') || undefined };
      });
      expect({ path, header }).toEqual({ path, header: after });
      // The pattern itself bounds the number (below 2^63), as the server applies it.
      expect({ ...header!, pattern: new RegExp(header!.pattern).test('9223372036854775808') }).toEqual({ type: 'string', pattern: false, bound: true });
      expect(new RegExp(header!.pattern).test('9223372036854775807')).toBe(true);
    }
  });
});
