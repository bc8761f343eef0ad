import { describe, expect, it } from 'vitest';
import { rawRequest, servedSqlite } from '../support/http.js';

const DAY = 86_400_000;

/** A lease's ttl has one limit, 1 ms to 366 days, whether sent as milliseconds or as a duration, and the OpenAPI document says so. */
describe('HTTP: the ttl of a turn, one limit in one schema', () => {
  const served = servedSqlite();
  const post = (path: string, body: unknown) =>
    rawRequest(served.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let n = 0;
  /** Begins a turn on a fresh session, then renews it, both with this ttl: their statuses and messages. */
  const tryTtl = async (ttl: unknown) => {
    const id = `ttl-${(n += 1)}`;
    await post('/sessions', { id });
    const begin = await post(`/sessions/${id}/turns`, { ttl });
    const turnId = begin.status === 201 ? begin.json().turnId : (await post(`/sessions/${id}/turns`, {})).json().turnId;
    const renew = await post(`/sessions/${id}/turns/${turnId}/renew`, { ttl });
    return [begin, renew].map((response) => ({ status: response.status, detail: response.status === 400 ? response.json().detail : undefined, field: response.status === 400 ? response.json().details.field : undefined }));
  };

  it('treats a duration and its milliseconds alike at both ends of the range', async () => {
    const pairs: Array<[string, number, number]> = [
      ['366d', 366 * DAY, 201],
      ['1ms', 1, 201],
      ['367d', 367 * DAY, 400],
      ['0s', 0, 400],
    ];
    for (const [text, ms, status] of pairs) {
      const [asText, asMs] = [await tryTtl(text), await tryTtl(ms)];
      expect({ text, ms, asText, asMs }).toEqual({ text, ms, asText: asMs, asMs });
      expect({ text, statuses: asText.map((answer) => answer.status) }).toEqual({ text, statuses: [status, status === 201 ? 200 : 400] });
      if (status === 400) expect({ text, field: asText[0]!.field }).toEqual({ text, field: 'ttl' });
    }
  });

  it('takes a ttl of null as none given, as every other optional field (outside test, session 21)', async () => {
    expect((await tryTtl(null)).map((answer) => answer.status)).toEqual([201, 200]);
  });

  it('documents that range in the OpenAPI document', async () => {
    const doc = (await rawRequest(served.url, { path: '/openapi.json' })).json();
    for (const path of ['/sessions/{id}/turns', '/sessions/{id}/turns/{turn}/renew']) {
      const ttl = doc.paths[path].post.requestBody.content['application/json'].schema.properties.ttl;
      // anyOf: the duration (a number or its text), or null (none given)
      expect({ path, number: ttl.anyOf[0].anyOf[0], none: ttl.anyOf[1] }).toEqual({ path, number: { type: 'integer', minimum: 1, maximum: 366 * DAY }, none: { type: 'null' } });
    }
  });
});
