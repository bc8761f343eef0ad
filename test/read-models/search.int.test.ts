import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isLedgerError, type EventStore } from '@session-ledger/core';
import { encodeSessionEvent } from '@session-ledger/events';
import { runSearch, searchModel, type SearchOptions } from '@session-ledger/read-models';
import { deleteSession } from '@session-ledger/retention';
import { appendMessages, compactHistory, compressSession, rewindMessages, rewriteMessage, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { writerOn } from '../support/stores.js';
import { rebuildInto } from './rebuildInto.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const sqliteStore = (): EventStore => {
  const dir = mkdtempSync(join(tmpdir(), 'search-'));
  const store = openSqliteStore(join(dir, 'ledger.sqlite'));
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
};

const modelOf = async (store: EventStore) => {
  const db = new Database(':memory:');
  cleanups.push(() => void db.close());
  await rebuildInto(db, searchModel, store);
  return db;
};

/** Given: a Hermes conversation compacted, rewritten, compressed, with a tool call and its result; and a CLI one. */
const ledger = async () => {
  const writer = writerOn(sqliteStore());
  const { context } = writer;
  await startSession(context, { id: 'chat', source: 'hermes' });
  await appendMessages(context, 'chat', [
    { id: 'u1', role: 'user', content: 'where is the flaky teapot test?' },
    { id: 'a1', role: 'assistant', content: 'it lives in packages/core/src/ledger.ts, see readAllPages' },
    { id: 'u2', role: 'user', content: 'my first draft said walrus' },
    { id: 'a2', role: 'assistant', content: null, toolCalls: [{ id: 'call-1', type: 'function', function: { name: 'grep', arguments: '{"pattern":"zebraCrossing"}' } }] },
    { id: 't2', role: 'tool', toolCallId: 'call-1', toolName: 'grep', content: 'match: src/pelican/nest.ts:12' },
  ]);
  await compactHistory(context, 'chat', { throughMessageId: 'a1', summary: 'talked about tests' });
  writer.advance(60_000);
  await rewriteMessage(context, 'chat', 'u2', 'my final draft said narwhal');
  const child = await compressSession(context, 'chat', { summary: 'compressed', childId: 'chat-2' });
  writer.advance(60_000);
  await appendMessages(context, child.sessionId, [
    { id: 'u3', role: 'user', content: '東京タワーの写真を見せて' },
    { id: 'u4', role: 'user', content: 'take this back: albatross' },
  ]);
  await rewindMessages(context, child.sessionId, ['u4']);
  await startSession(context, { id: 'other', source: 'cli' });
  await appendMessages(context, 'other', [{ id: 'o1', role: 'user', content: 'another teapot, in the kitchen' }]);
  return writer;
};

const ids = (db: Database.Database, options: SearchOptions) => runSearch(db, options).hits.map((hit) => `${hit.rootId}/${hit.messageId}`);

describe('search over the display history of a real ledger', () => {
  it('finds compacted messages, the rewritten text and not the old, tool calls and results, CJK, a path and an identifier; a rewound message is gone', async () => {
    const db = await modelOf((await ledger()).store);

    expect(ids(db, { q: 'flaky teapot' })).toEqual(['chat/u1']);
    expect(ids(db, { q: 'narwhal' })).toEqual(['chat/u2']);
    expect(ids(db, { q: 'walrus' })).toEqual([]);
    expect(ids(db, { q: 'zebraCrossing' })).toEqual(['chat/a2']);
    expect(ids(db, { q: 'pelican/nest' })).toEqual(['chat/t2']);
    expect(ids(db, { q: '京タワー' })).toEqual(['chat/u3']);
    expect(ids(db, { q: 'core/src/ledger.ts' })).toEqual(['chat/a1']);
    expect(ids(db, { q: 'AllPages' })).toEqual(['chat/a1']);
    expect(ids(db, { q: 'albatross' })).toEqual([]);
  });

  it('marks exactly the matched text, whatever the script', async () => {
    const db = await modelOf((await ledger()).store);

    for (const q of ['京タワー', 'core/src/ledger.ts', 'AllPages', 'zebraCrossing', 'TEAPOT']) {
      const [hit] = runSearch(db, { q }).hits;
      expect({ q, marked: hit!.marks.map(([start, end]) => hit!.snippet.slice(start, end).toLowerCase()) }).toEqual({ q, marked: [q.toLowerCase()] });
    }
  });

  it('names the conversation root and its current tip, ranks best first with a positive rank, and marks the match in a plain snippet', async () => {
    const db = await modelOf((await ledger()).store);

    const { hits } = runSearch(db, { q: 'teapot' });

    expect(hits.map((hit) => [hit.rootId, hit.tipId, hit.messageId])).toEqual(expect.arrayContaining([['chat', 'chat-2', 'u1'], ['other', 'other', 'o1']]));
    expect(hits).toHaveLength(2);
    for (const hit of hits) {
      expect(hit.rank).toBeGreaterThan(0);
      expect(hit.marks.map(([start, end]) => hit.snippet.slice(start, end).toLowerCase())).toEqual(['teapot']);
    }
    expect(hits[0]!.rank).toBeGreaterThanOrEqual(hits[1]!.rank);
  });

  it('filters by role, source and since, and stops at the limit', async () => {
    const db = await modelOf((await ledger()).store);

    expect(ids(db, { q: 'teapot', source: 'cli' })).toEqual(['other/o1']);
    expect(ids(db, { q: 'teapot', source: 'hermes' })).toEqual(['chat/u1']);
    expect(ids(db, { q: 'grep', role: 'tool' })).toEqual(['chat/t2']);
    expect(ids(db, { q: 'grep', role: 'assistant' })).toEqual(['chat/a2']);
    expect(ids(db, { q: 'teapot', since: '2026-03-01T10:01:00.000Z' })).toEqual(['other/o1']);
    expect(ids(db, { q: 'teapot', limit: 1 })).toHaveLength(1);
  });

  it('requires a short word next to a long one, and refuses a query with no word of 3 characters', async () => {
    const db = await modelOf((await ledger()).store);

    expect(ids(db, { q: 'teapot in' })).toEqual(['other/o1']);
    expect(() => runSearch(db, { q: 'in ab' })).toThrow(expect.objectContaining({ type: 'invalid_input' }));
  });

  it('does not find a deleted session: rebuilt from $all, and erased incrementally', async () => {
    const writer = await ledger();
    const kept = await modelOf(writer.store);

    const { deleted } = await deleteSession(writer.ledger, 'chat-2', { now: writer.now() });
    for (const stream of deleted) kept.transaction(() => searchModel.erase(kept, stream))();
    const rebuilt = await modelOf(writer.store);

    for (const db of [kept, rebuilt]) {
      expect(ids(db, { q: 'teapot' })).toEqual(['other/o1']);
      expect(ids(db, { q: 'narwhal' })).toEqual([]);
      expect(db.prepare('SELECT count(*) AS n FROM search_messages').get()).toEqual({ n: 1 });
    }
  });
});

describe('a withdrawn continuation in search', () => {
  // The Hermes import withdraws a continuation when Hermes deleted the child and went on in the segment:
  // the child stands as a conversation of its own, so search names it, not the segment it left.
  it('finds the child and the chain below it under their own root, and the segment under its own, with each tip', async () => {
    const writer = writerOn(sqliteStore());
    const { context } = writer;
    await startSession(context, { id: 'seg' });
    await appendMessages(context, 'seg', [{ id: 'p1', role: 'user', content: 'the heron before it' }]);
    await compressSession(context, 'seg', { summary: 'S', childId: 'kid' });
    await appendMessages(context, 'kid', [{ id: 'k1', role: 'user', content: 'the heron in the child' }]);
    await compressSession(context, 'kid', { summary: 'S2', childId: 'grandkid' });
    await appendMessages(context, 'grandkid', [{ id: 'g1', role: 'user', content: 'the heron further down' }]);
    const before = await modelOf(writer.store);
    expect(runSearch(before, { q: 'heron' }).hits.map((hit) => `${hit.rootId}>${hit.tipId}/${hit.messageId}`).sort()).toEqual(['seg>grandkid/g1', 'seg>grandkid/k1', 'seg>grandkid/p1']);

    const withdrawal = encodeSessionEvent({ type: 'session.continuation_withdrawn', data: { childId: 'kid', withdrawnAt: writer.now().toISOString() } });
    await writer.ledger.append('session-seg', [{ id: randomUUID(), ...withdrawal }]);
    await appendMessages(context, 'seg', [{ id: 'p2', role: 'user', content: 'the heron after it' }]);

    const db = await modelOf(writer.store);
    expect(runSearch(db, { q: 'heron' }).hits.map((hit) => `${hit.rootId}>${hit.tipId}/${hit.messageId}`).sort()).toEqual([
      'kid>grandkid/g1',
      'kid>grandkid/k1',
      'seg>seg/p1',
      'seg>seg/p2',
    ]);
  });
});

describe('two compression children of one segment in search', () => {
  // A Hermes import keeps both children of the gateway race; the one the segment does not continue in
  // is a conversation of its own (lineage), and search named the segment's (outside test, session 33, helper-93 F2).
  it('finds the child the segment does not continue in under its own root', async () => {
    const writer = writerOn(sqliteStore());
    await startSession(writer.context, { id: 'seg' });
    await compressSession(writer.context, 'seg', { summary: 'S', childId: 'kid' });
    await appendMessages(writer.context, 'kid', [{ id: 'k1', role: 'user', content: 'the ibis in the child' }]);
    const other = encodeSessionEvent({ type: 'session.started', data: { sessionId: 'other', rootId: 'seg', parentId: 'seg', link: 'compression', startedAt: writer.now().toISOString(), summary: 'S', summaryId: 'sum-other' } });
    await writer.ledger.append('session-other', [{ id: randomUUID(), ...other }]);
    await appendMessages(writer.context, 'other', [{ id: 'o1', role: 'user', content: 'the ibis in the other' }]);

    const db = await modelOf(writer.store);
    expect(runSearch(db, { q: 'ibis' }).hits.map((hit) => `${hit.rootId}>${hit.tipId}/${hit.messageId}`).sort()).toEqual(['other>other/o1', 'seg>kid/k1']);
  });
});

describe('queries are text, never FTS5 syntax', () => {
  const words = ['"', '*', 'NEAR(', '-', 'AND', 'OR', 'NOT', '^', ':', '(', ')', '{', '}', '\u0000', '\u0002', '\u001b[31m', "'", ';', '--', 'body:'];

  it('hostile queries find their text or are invalid_input, never an SQLite error', async () => {
    const writer = writerOn(sqliteStore());
    await startSession(writer.context, { id: 's' });
    await appendMessages(writer.context, 's', [{ id: 'm', role: 'user', content: 'call NEAR(x, y) AND "quoted" -flag body:* {a}' }]);
    const db = await modelOf(writer.store);

    expect(ids(db, { q: 'NEAR(' })).toEqual(['s/m']);
    expect(ids(db, { q: '"quoted"' })).toEqual(['s/m']);
    expect(ids(db, { q: 'AND -flag' })).toEqual(['s/m']);
    expect(ids(db, { q: 'body:*' })).toEqual(['s/m']);
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 4 })), { minLength: 1, maxLength: 6 }), fc.constantFrom('', ' '), (parts, glue) => {
        const q = parts.join(glue);
        try {
          runSearch(db, { q });
        } catch (error) {
          expect(isLedgerError(error, 'invalid_input')).toBe(true);
        }
      }),
      { numRuns: 400, seed: 15 },
    );
  });

  it('marks are UTF-16 offsets: right around emoji (surrogate pairs)', async () => {
    const writer = writerOn(sqliteStore());
    await startSession(writer.context, { id: 's' });
    await appendMessages(writer.context, 's', [{ id: 'm', role: 'user', content: '😀👍🏽 the 🦄needle🦄 is here 😀' }]);
    const db = await modelOf(writer.store);

    const [hit] = runSearch(db, { q: 'needle' }).hits;

    expect(hit!.snippet).toBe('😀👍🏽 the 🦄needle🦄 is here 😀');
    expect(hit!.marks).toEqual([[13, 19]]);
    expect(hit!.snippet.slice(13, 19)).toBe('needle');
  });
});
