import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { newId } from '@session-ledger/core';
import { ID_BATCH } from '@session-ledger/store-sqlite';
import { compared, compareRates, scratch, type Trial } from './measure.js';
import type { BenchRow } from './types.js';

/**
 * What the log's layout alone costs a single append, with no JavaScript of the store or the ledger:
 * plain better-sqlite3 transactions of one event each into the store's tables as schema version 6
 * has them (events, the position given; every ID_BATCH events their ids into indexed_ids in one
 * sorted insert), with and without a `log_leaves` row of the store's shape (its hash made before
 * the clock starts). The row is a b-tree insert and one more page in every commit's WAL frames;
 * the ratio bounds what the ledger's append row can reach with the leaf in a table of its own.
 */
const SINGLE = 1000;
const DATA = JSON.stringify({ role: 'assistant', text: 'The assistant replied with a short paragraph about the weather and asked a question. '.repeat(3) });
const METADATA = JSON.stringify({ prevHash: 'a'.repeat(64), hash: 'b'.repeat(64) });

const TABLES = `
  CREATE TABLE events (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, created TEXT NOT NULL, UNIQUE (stream, revision));
  CREATE TABLE indexed_ids (stream TEXT NOT NULL, id TEXT NOT NULL, revision INTEGER NOT NULL, PRIMARY KEY (stream, id, revision)) WITHOUT ROWID;
  CREATE TABLE log_leaves (leaf_index INTEGER PRIMARY KEY, position INTEGER NOT NULL, stream TEXT NOT NULL,
    revision INTEGER NOT NULL, hash BLOB NOT NULL, deletion INTEGER);`;

const trial = (file: () => string, withLeaf: boolean): Trial<{ db: Database.Database; ids: string[]; hashes: Buffer[] }> => ({
  prepare: () => {
    const db = new Database(file());
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(TABLES);
    return { db, ids: Array.from({ length: SINGLE }, () => newId()), hashes: Array.from({ length: SINGLE }, () => randomBytes(32)) };
  },
  work: ({ db, ids, hashes }) => {
    const insert = db.prepare('INSERT INTO events (position, stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const indexIds = db.prepare('INSERT OR IGNORE INTO indexed_ids (stream, id, revision) SELECT stream, id, revision FROM events WHERE position > ? ORDER BY stream, id, revision');
    const leaf = db.prepare('INSERT INTO log_leaves (leaf_index, position, stream, revision, hash, deletion) VALUES (?, ?, ?, ?, ?, NULL)');
    const begin = db.prepare('BEGIN IMMEDIATE');
    const commit = db.prepare('COMMIT');
    for (let at = 0; at < SINGLE; at += 1) {
      begin.run();
      insert.run(at + 1, 'session-bench', at, ids[at]!, 'turn.appended', DATA, METADATA, new Date().toISOString());
      if (withLeaf) leaf.run(at, at + 1, 'session-bench', at, hashes[at]!);
      if ((at + 1) % ID_BATCH === 0) indexIds.run(at + 1 - ID_BATCH);
      commit.run();
    }
  },
  cleanup: ({ db }) => void db.close(),
});

export const leafRowRow = async (): Promise<BenchRow> => {
  const dir = scratch('log-layout');
  const file = () => dir.file(`${newId()}.sqlite`);
  const rates = await compareRates(SINGLE, trial(file, true), trial(file, false));
  dir.remove();
  return compared(
    'the log layout alone: plain single-event transactions into the store tables with a log_leaves row',
    'events/s',
    rates.subject,
    'the same transactions without the leaf row',
    rates.baseline,
  );
};
