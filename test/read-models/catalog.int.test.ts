import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { catalogPage, catalogStats, parseSince, resolveSession } from '@session-ledger/read-models';
import { appendMessage, beginTurn, compressSession, endSession, endTurn, renewLease, startSession } from '@session-ledger/sessions';
import { deleteSessions } from '@session-ledger/retention';
import { encodeSessionEvent } from '@session-ledger/events';
import { allRows, catalogStore } from './support.js';

const T0 = '2026-03-01T10:00:00.000Z';

/** A ledger with the catalog inline and a clock the test moves. */
const given = () => {
  const { store, readModels } = catalogStore();
  let now = new Date(T0);
  const context = { ledger: createLedger(store), now: () => now };
  return {
    store,
    context,
    advance: (ms: number) => void (now = new Date(now.getTime() + ms)),
    now: () => now,
    catalog: () => readModels.ready('catalog'),
    rows: async (at = now) => allRows(await readModels.ready('catalog'), at),
  };
};

describe('the session catalog (Given/When/Then)', () => {
  it('compression: one row whose segments run root to tip, messages and activity summed along the chain', async () => {
    const g = given();
    await startSession(g.context, { id: 'root', title: 'planning', source: 'cli', model: 'm1' });
    await appendMessage(g.context, 'root', { role: 'user', content: 'one' });
    g.advance(60_000);

    await compressSession(g.context, 'root', { summary: 'S', childId: 'mid' });
    await compressSession(g.context, 'mid', { summary: 'S', childId: 'tip' });
    await appendMessage(g.context, 'tip', { role: 'user', content: 'two' });

    expect(await g.rows()).toEqual([
      {
        rootId: 'root',
        tipId: 'tip',
        segments: ['root', 'mid', 'tip'],
        title: 'planning',
        source: 'cli',
        model: 'm1',
        messages: 2,
        firstActivity: T0,
        lastActivity: '2026-03-01T10:01:00.000Z',
        live: false,
        ended: false,
        parentId: null,
        link: null,
      },
    ]);
  });

  it('delegation and branch: each child is its own row naming the segment it came from and how', async () => {
    const g = given();
    await startSession(g.context, { id: 'p' });
    await compressSession(g.context, 'p', { summary: 'S', childId: 'p2' });

    await startSession(g.context, { id: 'sub', parentId: 'p2', link: 'delegation' });
    await startSession(g.context, { id: 'alt', parentId: 'p', link: 'branch' });

    const rows = await g.rows();
    expect(rows.map((row) => [row.rootId, row.segments, row.parentId, row.link]).sort()).toEqual([
      ['alt', ['alt'], 'p2', 'branch'],
      ['p', ['p', 'p2'], null, null],
      ['sub', ['sub'], 'p2', 'delegation'],
    ]);
  });

  it('leases: live while a turn holds the tip (judged when read), carried across compression, not once it ended or expired', async () => {
    const g = given();
    await startSession(g.context, { id: 's' });
    const { turnId } = await beginTurn(g.context, 's', { owner: 'h', ttlMs: 30_000 });
    await compressSession(g.context, 's', { summary: 'S', childId: 's2' });
    g.advance(20_000);
    await renewLease(g.context, 's2', turnId, { ttlMs: 30_000 });

    expect((await g.rows(new Date(g.now().getTime() + 29_000)))[0]!.live).toBe(true);
    expect((await g.rows(new Date(g.now().getTime() + 30_000)))[0]!.live).toBe(false);
    const db = await g.catalog();
    expect(catalogPage(db, { live: true, now: g.now() }).sessions.map((row) => row.rootId)).toEqual(['s']);
    expect(catalogPage(db, { live: false, now: g.now() }).sessions).toEqual([]);

    await endTurn(g.context, 's2', turnId);
    expect((await g.rows())[0]!.live).toBe(false);
  });

  it('end: the row says ended once the tip ended', async () => {
    const g = given();
    await startSession(g.context, { id: 's' });
    await compressSession(g.context, 's', { summary: 'S', childId: 's2' });

    await endSession(g.context, 's2');

    expect(await g.rows()).toEqual([expect.objectContaining({ rootId: 's', ended: true })]);
  });

  it('deletion: a deleted conversation leaves the catalog, segments and ids with it, in the deleting transaction', async () => {
    const g = given();
    await startSession(g.context, { id: 'keep', title: 'kept' });
    await startSession(g.context, { id: 'gone', title: 'secret plan' });
    await compressSession(g.context, 'gone', { summary: 'S', childId: 'gone2' });

    await deleteSessions(g.context.ledger, ['gone2'], { now: g.now() });

    expect((await g.rows()).map((row) => row.rootId)).toEqual(['keep']);
    const db = await g.catalog();
    expect(db.prepare("SELECT id FROM catalog_segments WHERE id LIKE 'gone%'").all()).toEqual([]);
    // Unknown now, and no id can hold a space: not found, not a malformed id (outside test, session 35, helper-97 F3).
    expect(() => resolveSession(db, 'secret plan')).toThrow(expect.objectContaining({ type: 'not_found', message: 'session (id, id prefix or title) not found: secret plan' }));
    expect(resolveSession(db, 'gone2')).toBe('gone2'); // an id: the reader answers what it is (deleted)
  });

  it('a tombstoned compression root leaves its child a conversation of its own, as the fold of $all says', async () => {
    const g = given();
    await startSession(g.context, { id: 'r' });
    await compressSession(g.context, 'r', { summary: 'S', childId: 'c' });

    await g.store.tombstoneStream('session-r');

    expect((await g.rows()).map((row) => [row.rootId, row.segments])).toEqual([['c', ['c']]]);
  });

  it('a withdrawn continuation: the segment is its own conversation again and takes messages; its former child is a row of its own', async () => {
    const g = given();
    await startSession(g.context, { id: 'r' });
    await compressSession(g.context, 'r', { summary: 'S', childId: 'c' });
    await appendMessage(g.context, 'c', { role: 'user', content: 'in the child' });
    expect((await g.rows()).map((row) => [row.rootId, row.segments])).toEqual([['r', ['r', 'c']]]);

    // As the Hermes import writes it when Hermes deleted the child and went on in the segment.
    const withdrawal = encodeSessionEvent({ type: 'session.continuation_withdrawn', data: { childId: 'c', withdrawnAt: g.now().toISOString() } });
    await g.context.ledger.append('session-r', [{ id: randomUUID(), ...withdrawal }]);
    g.advance(1000);
    await appendMessage(g.context, 'r', { role: 'user', content: 'in the segment again' });

    expect((await g.rows()).map((row) => [row.rootId, row.segments, row.messages]).sort()).toEqual([
      ['c', ['c'], 1],
      ['r', ['r'], 1],
    ]);
  });

  it('a child whose start is stored before its parent continues in it (a migration copying stream by stream): one conversation once the continuation lands', async () => {
    const g = given();
    const at = g.now().toISOString();
    const event = (e: Parameters<typeof encodeSessionEvent>[0]) => [{ id: randomUUID(), ...encodeSessionEvent(e) }];
    await g.context.ledger.append('session-c', event({ type: 'session.started', data: { sessionId: 'c', rootId: 'r', parentId: 'r', link: 'compression', startedAt: at, summary: 'S', summaryId: 'sum' } }));
    await g.context.ledger.append('session-r', event({ type: 'session.started', data: { sessionId: 'r', rootId: 'r', parentId: null, link: null, startedAt: at } }));
    expect((await g.rows()).map((row) => [row.rootId, row.segments]).sort()).toEqual([
      ['c', ['c']],
      ['r', ['r']],
    ]);

    await g.context.ledger.append('session-r', event({ type: 'session.continued', data: { childId: 'c', summary: 'S', summaryId: 'sum', continuedAt: at } }));

    expect((await g.rows()).map((row) => [row.rootId, row.segments])).toEqual([['r', ['r', 'c']]]);
  });

  it('paging: newest activity first, ties by root id; a walk while writers append serves no row twice and every row whose activity did not change', async () => {
    const g = given();
    for (let n = 0; n < 12; n += 1) {
      await startSession(g.context, { id: `s${String(n).padStart(2, '0')}` });
      if (n % 3 !== 0) g.advance(1000);
    }
    const before = (await g.rows()).map((row) => row.rootId);
    expect(before).toEqual(['s11', 's09', 's10', 's08', 's06', 's07', 's05', 's03', 's04', 's02', 's00', 's01']);
    const db = await g.catalog();
    const seen: string[] = [];
    let cursor: string | null = null;
    let round = 0;
    do {
      const page = catalogPage(db, { limit: 5, cursor, now: g.now() });
      seen.push(...page.sessions.map((row) => row.rootId));
      cursor = page.nextCursor;
      // writers between pages: a new conversation, and new activity on one already served
      g.advance(1000);
      await startSession(g.context, { id: `new${round}` });
      await appendMessage(g.context, seen[0]!, { role: 'user', content: 'again' });
      round += 1;
    } while (cursor !== null);

    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => before.includes(id)).sort()).toEqual([...before].sort());
  });

  it('paging: a row not served yet that gets new activity moves above the cursor; this walk does not serve it, a new walk serves it first (as the README says)', async () => {
    const g = given();
    for (let n = 0; n < 8; n += 1) {
      await startSession(g.context, { id: `s${n}` });
      g.advance(1000);
    }
    const db = await g.catalog();
    const first = catalogPage(db, { limit: 4, now: g.now() });
    expect(first.sessions.map((row) => row.rootId)).toEqual(['s7', 's6', 's5', 's4']);
    await appendMessage(g.context, 's0', { role: 'user', content: 'new activity on the oldest' });
    const rest = catalogPage(db, { limit: 4, cursor: first.nextCursor, now: g.now() });
    expect(rest.sessions.map((row) => row.rootId)).toEqual(['s3', 's2', 's1']);
    expect(catalogPage(db, { limit: 1, now: g.now() }).sessions.map((row) => row.rootId)).toEqual(['s0']);
  });

  it('filters: source, since (an ISO time or a duration back from now); a bad cursor or limit is invalid input', async () => {
    const g = given();
    await startSession(g.context, { id: 'a', source: 'cli' });
    g.advance(3 * 86_400_000);
    await startSession(g.context, { id: 'b', source: 'hermes' });
    const db = await g.catalog();

    expect(catalogPage(db, { source: 'cli', now: g.now() }).sessions.map((row) => row.rootId)).toEqual(['a']);
    expect(catalogPage(db, { since: parseSince('since', '2d', g.now()), now: g.now() }).sessions.map((row) => row.rootId)).toEqual(['b']);
    expect(catalogPage(db, { since: parseSince('since', T0, g.now()), now: g.now() }).sessions.map((row) => row.rootId)).toEqual(['b', 'a']);
    expect(() => parseSince('since', 'yesterday', g.now())).toThrow(expect.objectContaining({ type: 'invalid_input' }));
    expect(() => catalogPage(db, { cursor: 'not-a-cursor', now: g.now() })).toThrow(expect.objectContaining({ type: 'invalid_input' }));
    // Outside test, session 23: an empty cursor was taken for none (the first page again, in a loop).
    expect(() => catalogPage(db, { cursor: '', now: g.now() })).toThrow(expect.objectContaining({ type: 'invalid_input' }));
    expect(() => catalogPage(db, { limit: 201, now: g.now() })).toThrow(expect.objectContaining({ type: 'invalid_input' }));
  });

  it('resolution: a full id as is, a unique prefix of 4+ characters to its segment, an exact title to the tip; several are ambiguous', async () => {
    const g = given();
    await startSession(g.context, { id: 'abcd-1111', title: 'weekly' });
    await compressSession(g.context, 'abcd-1111', { summary: 'S', childId: 'abce-2222' });
    await startSession(g.context, { id: 'abcd-3333', title: 'daily' });
    await startSession(g.context, { id: 'zz-1', title: 'twice' });
    await startSession(g.context, { id: 'zz-2', title: 'twice' });
    const db = await g.catalog();

    expect(resolveSession(db, 'abcd-1111')).toBe('abcd-1111');
    expect(resolveSession(db, 'abce')).toBe('abce-2222');
    expect(resolveSession(db, 'weekly')).toBe('abce-2222');
    expect(resolveSession(db, 'abc')).toBe('abc'); // too short to be a prefix
    expect(() => resolveSession(db, 'abcd')).toThrow(expect.objectContaining({ type: 'ambiguous', details: { selector: 'abcd', candidates: ['abcd-1111', 'abcd-3333'] } }));
    expect(() => resolveSession(db, 'twice')).toThrow(expect.objectContaining({ type: 'ambiguous', details: { selector: 'twice', candidates: ['zz-1', 'zz-2'] } }));
  });

  it('an empty or blank selector is invalid input, never the title of a conversation titled "" or " "', async () => {
    const g = given();
    await startSession(g.context, { id: 'untitled', title: '' });
    await startSession(g.context, { id: 'spaced', title: ' ' });
    const db = await g.catalog();

    for (const selector of ['', ' ', '\t']) expect(() => resolveSession(db, selector)).toThrow(expect.objectContaining({ type: 'invalid_input', details: { field: 'id' } }));
  });

  it('stats: conversations and messages, by source and by model', async () => {
    const g = given();
    await startSession(g.context, { id: 'a', source: 'cli', model: 'm1' });
    await appendMessage(g.context, 'a', { role: 'user', content: 'x' });
    await appendMessage(g.context, 'a', { role: 'assistant', content: 'y' });
    await startSession(g.context, { id: 'b', source: 'cli' });
    await startSession(g.context, { id: 'c', source: 'hermes', model: 'm1' });
    await appendMessage(g.context, 'c', { role: 'user', content: 'z' });

    expect(catalogStats(await g.catalog(), 123)).toEqual({
      sessions: 3,
      messages: 3,
      bySource: [
        { source: 'cli', sessions: 2, messages: 2 },
        { source: 'hermes', sessions: 1, messages: 1 },
      ],
      byModel: [
        { model: 'm1', sessions: 2, messages: 3 },
        { model: null, sessions: 1, messages: 0 },
      ],
      storeBytes: 123,
    });
  });
});
