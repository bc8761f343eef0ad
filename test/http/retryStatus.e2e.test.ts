import { describe, expect, it } from 'vitest';
import { rawRequest, servedSqlite } from '../support/http.js';

/**
 * A write retried with the ids that make it idempotent answers 200 (nothing new stored), as a retried
 * start and a retried message do; a retried turn begin answered 201, like a grant, holding a lease that
 * may have expired meanwhile, and a retried compression 201 too (outside test, session 24).
 */
describe('HTTP: a retry that stores nothing answers 200, not 201', () => {
  const served = servedSqlite();
  const post = (path: string, body: unknown) =>
    rawRequest(served.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('a turn begun again with its turnId and owner: 200 with the lease it holds', async () => {
    expect((await post('/sessions', { id: 'retry-turn' })).status).toBe(201);
    const first = await post('/sessions/retry-turn/turns', { turnId: 't1', owner: 'harness', ttl: '1ms' });
    expect(first.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await post('/sessions/retry-turn/turns', { turnId: 't1', owner: 'harness', ttl: '5m' });
    expect(again.status).toBe(200);
    expect(again.json()).toMatchObject({ turnId: 't1', written: false, leaseExpiresAt: first.json().leaseExpiresAt });
  });

  it('a compression run again with its childId: 200, the same tip', async () => {
    expect((await post('/sessions', { id: 'retry-compress' })).status).toBe(201);
    const first = await post('/sessions/retry-compress/compress', { summary: 'S', childId: 'retry-compress-2' });
    expect(first.status).toBe(201);
    const again = await post('/sessions/retry-compress/compress', { summary: 'S', childId: 'retry-compress-2' });
    expect(again.status).toBe(200);
    expect(again.json()).toMatchObject({ sessionId: 'retry-compress-2', written: false });
  });

  it('a compaction run again with its summaryId: 200, written false, one summary stored; other content under it: 409', async () => {
    expect((await post('/sessions', { id: 'retry-compact' })).status).toBe(201);
    expect((await post('/sessions/retry-compact/messages', { id: 'm1', role: 'user', content: 'hi' })).status).toBe(201);
    const first = await post('/sessions/retry-compact/compact', { through: 'm1', summary: 'S', summaryId: 'sum-1' });
    expect([first.status, first.json()]).toEqual([200, expect.objectContaining({ summaryId: 'sum-1', written: true })]);
    const again = await post('/sessions/retry-compact/compact', { through: 'm1', summary: 'S', summaryId: 'sum-1' });
    expect([again.status, again.json()]).toEqual([200, expect.objectContaining({ summaryId: 'sum-1', written: false })]);
    const other = await post('/sessions/retry-compact/compact', { through: 'm1', summary: 'another', summaryId: 'sum-1' });
    expect([other.status, other.json().type]).toEqual([409, 'urn:session-ledger:error:duplicate']);
    const raw = await rawRequest(served.url, { method: 'GET', path: '/sessions/retry-compact?view=raw' });
    expect(raw.json().events.filter((event: { type: string }) => event.type === 'history.compacted')).toHaveLength(1);
  });
});
