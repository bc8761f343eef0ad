import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isLedgerError, newId, type EventData, type EventStore } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { ID_BATCH } from '../../packages/store-sqlite/src/idIndex.js';
import { MIGRATIONS } from '../../packages/store-sqlite/src/schema.js';
import { rebuildEvents } from '../../packages/store-sqlite/src/rebuildEvents.js';
import { storesOnTempFiles, tempLedger } from './tempLedger.js';
import { versionFourFile } from './versionFourFile.js';

const events = (count: number): EventData[] => Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'written', data: { n } }));
const outcome = (promise: Promise<unknown>) => promise.then(() => 'appended', (error: unknown) => (isLedgerError(error) ? error.type : String(error)));

/** What the file says: ids indexed, and how far. */
const onFile = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return {
      indexed: db.prepare('SELECT id FROM indexed_ids').pluck().all() as string[],
      through: db.prepare(`SELECT value FROM ledger_meta WHERE key = 'ids.indexed_through'`).pluck().get() as string,
    };
  } finally {
    db.close();
  }
};

/** Every event appended again under 'any', one at a time: each must be an idempotent retry of its own revision. */
const retriedAll = async (store: EventStore, stream: string, written: EventData[], firstRevision = 0n) => {
  for (const [index, event] of written.entries()) {
    const retry = await store.appendToStream(stream, [event], { expectedRevision: 'any' });
    expect(retry).toMatchObject({ written: false, nextExpectedRevision: firstRevision + BigInt(index) });
  }
};

/**
 * Event ids are indexed in batches (schema version 6, idIndex.ts): a retry under expectedRevision
 * 'any' must find its event whether its id is indexed yet or not, through any connection, after a
 * rollback, and on a file migrated while a process of an older version had it open.
 */
describe('SQLite store: event ids indexed in batches', () => {
  const open = storesOnTempFiles('id-index');

  it('a retry under any finds its event, indexed yet or not, and a lone append never writes a duplicate', async () => {
    const { store, file } = open();
    const written = events(ID_BATCH + 40);
    for (const event of written) await store.appendToStream('s', [event], { expectedRevision: 'any' });
    const { indexed, through } = onFile(file);
    // both kinds are there: the first batch indexed, the rest still in the backlog
    expect(indexed.length).toBeGreaterThan(0);
    expect(indexed.length).toBeLessThan(written.length);
    expect(BigInt(through)).toBeLessThan(BigInt(written.length));
    await retriedAll(store, 's', written);
    expect((await store.readStream('s')).map((event) => event.id)).toEqual(written.map((event) => event.id));
  });

  it('a retry through another connection finds ids the first has not indexed, and the first sees what the second wrote since', async () => {
    const { store: first, file } = open();
    const { store: second } = open(file);
    const byFirst = events(10);
    for (const event of byFirst) await first.appendToStream('s', [event]);
    await retriedAll(second, 's', byFirst); // the second reads the first's backlog
    const bySecond = events(10);
    for (const event of bySecond) await second.appendToStream('s', [event]); // the second keeps its backlog current
    await retriedAll(first, 's', [...byFirst, ...bySecond]); // the first's kept backlog is stale: read again
    const batch = events(ID_BATCH);
    await second.appendToStream('t', batch); // indexes everything
    expect(onFile(file).indexed).toEqual(expect.arrayContaining([...byFirst, ...bySecond].map((event) => event.id)));
    await retriedAll(first, 's', [...byFirst, ...bySecond]);
    await retriedAll(first, 't', batch);
    expect((await first.readStream('s')).length).toBe(20);
  });

  it('a group rolled back after one of its appends indexed the backlog keeps nothing of that index', async () => {
    const { store, file } = open();
    const early = events(ID_BATCH - 1);
    await store.appendToStream('s', early, { expectedRevision: 'no_stream' });
    expect(onFile(file).indexed).toEqual([]);
    // The first append completes a batch and indexes it; the second is refused: the group rolls back
    // and runs again, each append in its own savepoint.
    const outcomes = await Promise.all([
      outcome(store.appendToStream('s', events(1), { expectedRevision: 'any' })),
      outcome(store.appendToStream('t', events(1), { expectedRevision: 5n })),
    ]);
    expect(outcomes).toEqual(['appended', 'wrong_expected_version']);
    await retriedAll(store, 's', early);
    expect((await store.readStream('s')).length).toBe(ID_BATCH);
  });

  it('ids of erased events match no more; a stream appended again after a soft delete takes them as new', async () => {
    const { store } = open();
    const first = events(3);
    await store.appendToStream('s', first);
    await store.deleteStream('s');
    const again = await store.appendToStream('s', [first[0]!], { expectedRevision: 'any' });
    expect(again).toMatchObject({ written: true, nextExpectedRevision: 3n });
    await retriedAll(store, 's', [first[0]!], 3n);
  });

  it('a process of an older version, open on the file while it was migrated, has its retries under any and its deletes refused, and its appends stay findable', async () => {
    const temp = tempLedger('id-index-v5');
    versionFourFile(temp.file);
    const v5 = new Database(temp.file);
    v5.exec(MIGRATIONS[4]!);
    rebuildEvents(v5, () => undefined);
    v5.pragma('user_version = 5');
    // what a version 5 store prepared: its id lookup, its delete's erasure of ids, and its insert (the position given)
    const lookup = v5.prepare('SELECT revision FROM event_ids WHERE stream = ? AND id = ? AND revision >= ? ORDER BY revision LIMIT 1');
    const eraseIds = v5.prepare('DELETE FROM event_ids WHERE stream = ?');
    const insert = v5.prepare(`INSERT INTO events (position, stream, revision, id, type, data, metadata, created) VALUES (?, 'old', 3, ?, 't', '{}', '{}', '')`);
    const store = openSqliteStore(temp.file); // migrates to the current version
    try {
      expect(() => lookup.get('old', newId(), 0)).toThrow(/no such table: event_ids/);
      expect(() => eraseIds.run('old')).toThrow(/no such table: event_ids/);
      const old = newId();
      insert.run(100, old);
      v5.close();
      expect(await store.appendToStream('old', [{ id: old, type: 't', data: {} }], { expectedRevision: 'any' })).toMatchObject({ written: false, nextExpectedRevision: 3n });
    } finally {
      if (v5.open) v5.close();
      await store.close();
      temp.remove();
    }
  });
});
