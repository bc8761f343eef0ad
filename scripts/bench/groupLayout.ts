import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { newId } from '@session-ledger/core';
import { ID_BATCH, openSqliteStore } from '@session-ledger/store-sqlite';
import { batchedInserts } from './batchedBaseline.js';
import { compared, compareRates, scratch, type Trial } from './measure.js';
import { benchMessage } from './messages.js';
import type { BenchRow } from './types.js';

/**
 * Issue 14's in-process ceiling: the layout of the 32-writer row with no JavaScript work. A file
 * made by the store itself (its schema, its pragmas), then plain better-sqlite3: each transaction
 * writes one event to each of 32 streams (the event row and its log leaf, hashes made before the
 * clock starts, the log's subtree nodes as the store writes them, and every ID_BATCH events their
 * ids in one sorted insert, as schema version 6 indexes them), against the in-process row's baseline, plain inserts of 1,000 rows of one stream a
 * transaction. With `statements`, each append also runs what the store's append runs beside its
 * rows: its SAVEPOINT and RELEASE, the stream-state SELECT and the log-size SELECT.
 */
const STREAMS = 32;
const EACH = 100;
const COUNT = STREAMS * EACH;
const TILE_LEVEL = 4;
const DATA = JSON.stringify(benchMessage(7));
const METADATA = JSON.stringify({ prevHash: 'a'.repeat(64), hash: 'b'.repeat(64), correlationId: newId() });
/** The store's stream-state statement (statements.ts). */
const STREAM_STATE = `SELECT max(last_revision, coalesce((SELECT max(revision) FROM events WHERE events.stream = streams.name), -1)) AS last_revision,
  first_live, tombstoned FROM streams WHERE name = ?`;

interface Prepared {
  db: Database.Database;
  ids: string[];
  hashes: Buffer[];
}

/** A store file with 32 started streams (one event each, as startSession leaves them). */
const storeFile = async (file: string): Promise<void> => {
  const store = openSqliteStore(file);
  for (let stream = 0; stream < STREAMS; stream += 1) {
    await store.appendToStream(`w-${stream}`, [{ id: newId(), type: 'session.started', data: { id: `w-${stream}` } }], { expectedRevision: 'no_stream' });
  }
  await store.close();
};

/** How a layout trial writes: the store's statements beside its rows; the stream key deferred. */
interface Layout {
  statements: boolean;
  deferred: boolean;
}

/** The events table as the store has it (schema.ts, version 5), without its (stream, revision) key, and that key apart. */
const DEFERRED_TABLES = `CREATE TABLE events_unkeyed (
    position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, created TEXT NOT NULL);
  CREATE TABLE stream_keys (stream TEXT NOT NULL, revision INTEGER NOT NULL, position INTEGER NOT NULL,
    PRIMARY KEY (stream, revision)) WITHOUT ROWID;`;

const layoutTrial = (file: () => string, { statements, deferred }: Layout): Trial<Prepared> => ({
  prepare: async () => {
    const path = file();
    await storeFile(path);
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('secure_delete = ON');
    db.pragma('cache_size = -65536');
    db.pragma('foreign_keys = ON');
    if (deferred) db.exec(DEFERRED_TABLES);
    return { db, ids: Array.from({ length: COUNT }, () => newId()), hashes: Array.from({ length: COUNT + 64 }, () => randomBytes(32)) };
  },
  work: ({ db, ids, hashes }) => {
    const events = deferred ? 'events_unkeyed' : 'events';
    const insert = db.prepare(`INSERT INTO ${events} (position, stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    const highest = db.prepare('SELECT coalesce(max(position), 0) FROM events').pluck();
    const leaf = db.prepare('INSERT INTO log_leaves (leaf_index, position, stream, revision, hash, deletion) VALUES (?, ?, ?, ?, ?, NULL)');
    const node = db.prepare('INSERT INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)');
    const indexIds = db.prepare(`INSERT OR IGNORE INTO indexed_ids (stream, id, revision) SELECT stream, id, revision FROM ${events} WHERE position > ? ORDER BY stream, id, revision`);
    const indexKeys = deferred ? db.prepare(`INSERT INTO stream_keys (stream, revision, position) SELECT stream, revision, position FROM ${events} WHERE position > ? ORDER BY stream, revision`) : null;
    const state = db.prepare(STREAM_STATE).safeIntegers(true);
    const size = db.prepare('SELECT coalesce(max(leaf_index) + 1, 0) FROM log_leaves').pluck();
    const [begin, commit, savepoint, release] = ['BEGIN IMMEDIATE', 'COMMIT', 'SAVEPOINT append', 'RELEASE append'].map((text) => db.prepare(text));
    let leaves = size.get() as number;
    let position = (highest.get() as number) + 1;
    let indexedThrough = position - 1;
    for (let round = 0; round < EACH; round += 1) {
      begin!.run();
      const created = new Date().toISOString();
      for (let stream = 0; stream < STREAMS; stream += 1) {
        const name = `w-${stream}`;
        const n = round * STREAMS + stream;
        if (statements) {
          savepoint!.run();
          state.get(name);
          size.get();
        }
        insert.run(position, name, round + 1, ids[n]!, 'message.appended', DATA, METADATA, created);
        leaf.run(leaves, position, name, round + 1, hashes[n]!);
        position += 1;
        leaves += 1;
        for (let level = TILE_LEVEL; leaves % 2 ** level === 0; level += 1) node.run(level, leaves / 2 ** level - 1, hashes[n + level]!);
        if (statements) release!.run();
      }
      if (position - 1 - indexedThrough >= ID_BATCH) {
        indexIds.run(indexedThrough);
        indexKeys?.run(indexedThrough);
        indexedThrough = position - 1;
      }
      commit!.run();
    }
  },
  cleanup: ({ db }) => void db.close(),
});

const NAMES = {
  plain: `ceiling: the store's layout for ${STREAMS} writers, plain better-sqlite3, one event (row, leaf) to each of ${STREAMS} streams a transaction`,
  statements: `ceiling: the store's SQL for ${STREAMS} writers, plain better-sqlite3, one event to each of ${STREAMS} streams a transaction, each under a savepoint with the store's two SELECTs`,
  deferred: `ceiling: the same layout with the (stream, revision) key written every ${ID_BATCH} events, as the ids are (a stream index after commit; the store has none)`,
} as const;

const layoutRow = async (name: keyof typeof NAMES): Promise<BenchRow> => {
  const dir = scratch('group-layout');
  const rates = await compareRates(
    COUNT,
    layoutTrial(() => dir.file(`${newId()}.sqlite`), { statements: name === 'statements', deferred: name === 'deferred' }),
    batchedInserts(dir, COUNT),
    5,
  );
  dir.remove();
  return compared(
    NAMES[name],
    'messages/s',
    rates.subject,
    'plain better-sqlite3 inserts, 1,000 a transaction, synchronous=NORMAL (the in-process row\'s baseline)',
    rates.baseline,
  );
};

export const layoutRows = async (): Promise<BenchRow[]> => [await layoutRow('plain'), await layoutRow('statements'), await layoutRow('deferred')];
