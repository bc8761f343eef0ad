import type Database from 'better-sqlite3';
import { chainHash, HASH, type JsonObject, type JsonValue, type StoredEventText } from '@session-ledger/core';
import { logStatements } from './statements.js';
import { logWriter } from './writer.js';
import { writeDeletion } from './deletion.js';

/**
 * Schema version 4: the log-level commitment. log_leaves: one row per event ever appended, in
 * commit order (kept when the event is erased); log_nodes: the hash of every complete subtree of
 * 2^level leaves for level >= 4 (smaller ones are read from their leaves: tree.ts), so a root is
 * O(log n) lookups and a proof O(log^2 n) at worst;
 * log_deletions: what each delete erased. A file from before gets its log built from its events
 * in position order (those already erased have no leaf: they were never committed to).
 */
export const LOG_TABLES = `
  CREATE TABLE log_leaves (
    leaf_index INTEGER PRIMARY KEY,
    position INTEGER NOT NULL,
    stream TEXT NOT NULL,
    revision INTEGER NOT NULL,
    hash BLOB NOT NULL,
    deletion INTEGER
  );
  CREATE TABLE log_nodes (
    level INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    hash BLOB NOT NULL,
    PRIMARY KEY (level, idx)
  ) WITHOUT ROWID;
  CREATE TABLE log_deletions (
    id INTEGER PRIMARY KEY,
    stream TEXT NOT NULL,
    kind TEXT NOT NULL,
    from_revision INTEGER NOT NULL,
    head_revision INTEGER NOT NULL,
    head_hash TEXT,
    first_leaf INTEGER,
    last_leaf INTEGER,
    log_size INTEGER NOT NULL,
    at TEXT NOT NULL
  );`;

type Row = StoredEventText;

/** The chain hash a stored event carries, or the one computed from its content when it has none. */
export const storedChainHash = (row: Omit<Row, 'position' | 'created'>): string => {
  try {
    const metadata = JSON.parse(row.metadata) as JsonObject;
    const { [HASH]: hash, ...rest } = metadata;
    if (typeof hash === 'string') return hash;
    return chainHash({ stream: row.stream, revision: row.revision, id: row.id, type: row.type, data: JSON.parse(row.data) as JsonValue, metadata: rest });
  } catch {
    return ''; // unreadable JSON: verify names the event
  }
};

export const buildLog = (db: Database.Database, done: (events: number) => void = () => undefined): void => {
  const sql = logStatements(db);
  const leaves = logWriter(sql);
  const page = db
    .prepare('SELECT position, stream, revision, id, type, data, metadata, created FROM events WHERE position > ? ORDER BY position LIMIT 10000')
    .safeIntegers(true);
  // Pages, not one iterator: the connection cannot write while a statement is still reading.
  for (let after = -1n; ; ) {
    const rows = page.all(after) as Row[];
    for (const row of rows) leaves.append(row.position, row.stream, row.revision, storedChainHash(row), row.created);
    if (rows.length === 0) break;
    done(rows.length);
    after = rows[rows.length - 1]!.position;
  }
  // Deletions made before the log: recorded as of the migration, so that verify accepts the streams' states.
  const deleted = db.prepare('SELECT name, first_live, tombstoned FROM streams WHERE first_live > 0 OR tombstoned = 1').safeIntegers(true);
  for (const stream of deleted.all() as Array<{ name: string; first_live: bigint; tombstoned: bigint }>) {
    writeDeletion(sql, { stream: stream.name, kind: stream.tombstoned ? 'tombstone' : 'soft', fromRevision: 0n, headRevision: stream.first_live - 1n, headHash: null, firstLeaf: null, lastLeaf: null, at: 'before schema version 4' });
  }
};
