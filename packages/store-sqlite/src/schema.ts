import type Database from 'better-sqlite3';
import { buildLog, LOG_TABLES } from './log/tables.js';
import { rebuildEvents } from './rebuildEvents.js';

export { OLD_WRITER } from './rebuildEvents.js';

/** Each migration moves the schema one version up; `PRAGMA user_version` says where a file is. */
export const MIGRATIONS: ReadonlyArray<string> = [
  `CREATE TABLE ledger_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE streams (
     name TEXT PRIMARY KEY,
     last_revision INTEGER NOT NULL,
     first_live INTEGER NOT NULL DEFAULT 0,
     tombstoned INTEGER NOT NULL DEFAULT 0
   ) WITHOUT ROWID;
   CREATE TABLE events (
     position INTEGER PRIMARY KEY AUTOINCREMENT,
     stream TEXT NOT NULL,
     revision INTEGER NOT NULL,
     id TEXT NOT NULL,
     type TEXT NOT NULL,
     data TEXT NOT NULL,
     metadata TEXT NOT NULL,
     created TEXT NOT NULL,
     UNIQUE (stream, revision)
   );
   CREATE INDEX events_stream_id ON events (stream, id);
   CREATE TABLE checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL) WITHOUT ROWID;
   INSERT INTO ledger_meta (key, value) VALUES ('format', 'session-ledger');`,
  // 2: streams.last_revision is a floor (written on create and delete); the events carry the rest.
  // No data changes; the version keeps older session-ledgers, which trust the column, off the file.
  `INSERT INTO ledger_meta (key, value) VALUES ('streams.last_revision', 'floor');`,
  // 3: the event ids a stream holds, for append idempotency under expectedRevision 'any', move from the
  // events_stream_id index into a table of their own, kept by a trigger. Deleting a stream's rows then
  // removes its ids as one key range of that table, in key order, instead of one random index seek per
  // event (a tombstone of 100k events: ~400 ms less). Same lookups, same answers.
  `CREATE TABLE event_ids (
     stream TEXT NOT NULL,
     id TEXT NOT NULL,
     revision INTEGER NOT NULL,
     PRIMARY KEY (stream, id, revision)
   ) WITHOUT ROWID;
   INSERT INTO event_ids (stream, id, revision) SELECT stream, id, revision FROM events ORDER BY stream, id, revision;
   DROP INDEX events_stream_id;
   CREATE TRIGGER events_id_recorded AFTER INSERT ON events BEGIN
     INSERT INTO event_ids (stream, id, revision) VALUES (new.stream, new.id, new.revision);
   END;`,
  // 4: the log-level commitment (log/tables.ts): a Merkle tree over every event in commit order,
  // built from the events a file already holds, in position order (FILLS, run after the SQL).
  LOG_TABLES,
  // 5: positions without AUTOINCREMENT (positions.ts): every insert names its position; one that
  // does not (a process of an older version, which had the file open while it was migrated, and
  // would take max(position) + 1: a position erased events held) is refused (events_position_given). the log's last leaf remembers the highest
  // position ever assigned, so sqlite_sequence's page need not be written by every commit (one WAL
  // frame of ~5.4). The events table is rebuilt with the same rows; the highest position a file
  // assigned before its log (events erased before version 4 have no leaf) is kept as a floor.
  // The rows are copied by rebuildEvents (a fill: in pages, so a terminal shows the copy's progress).
  `INSERT OR REPLACE INTO ledger_meta (key, value) SELECT 'positions.floor', CAST(seq AS TEXT) FROM sqlite_sequence WHERE name = 'events';
   CREATE TABLE events_v5 (
     position INTEGER PRIMARY KEY,
     stream TEXT NOT NULL,
     revision INTEGER NOT NULL,
     id TEXT NOT NULL,
     type TEXT NOT NULL,
     data TEXT NOT NULL,
     metadata TEXT NOT NULL,
     created TEXT NOT NULL,
     UNIQUE (stream, revision)
   );`,
  // 6: event ids are indexed in batches (idIndex.ts), not by a trigger on every insert: a random id
  // is one more page in every commit's WAL frames. The table is renamed so that a process of an
  // older version, which had the file open while it was migrated, fails its retries under 'any'
  // and its deletes (no such table event_ids: nothing stored, nothing erased) instead of missing an
  // id not indexed yet or leaving one behind. Every event the file holds was indexed by the trigger.
  `DROP TRIGGER events_id_recorded;
   ALTER TABLE event_ids RENAME TO indexed_ids;
   INSERT OR REPLACE INTO ledger_meta (key, value) SELECT 'ids.indexed_through', CAST(coalesce(max(position), 0) AS TEXT) FROM events;`,
  // 7: every event leaf written from now on commits to the event's position too (core/log/leaf.ts,
  // docs/audit.md "Leaf input"), so positions moved behind the store are caught. Leaves written before
  // keep their form, which verify accepts where the stored leaf hash is that form's (a leaf written
  // with its position never is). No data changes; the version keeps older session-ledgers, whose
  // verify would take every new leaf for an altered one, off the file.
  `INSERT OR REPLACE INTO ledger_meta (key, value) VALUES ('log.leaf', 'position');`,
];

/** How a migration that reads every event advances: the version it brings the file to, events done, events in all. */
export type MigrationProgress = (version: number, done: number, total: number) => void;

/**
 * Steps that must compute (hash) or copy in pages after a migration's SQL, by the version it brings
 * a file to; each tells how many events it has done.
 */
const FILLS: Readonly<Record<number, (db: Database.Database, done: (events: number) => void) => void>> = { 4: buildLog, 5: rebuildEvents };

export const SCHEMA_VERSION = MIGRATIONS.length;

const eventCount = (db: Database.Database): number => db.prepare('SELECT count(*) FROM events').pluck().get() as number;

/**
 * Refuses, before anything is written, a file that is not a session-ledger store:
 * an SQLite file with other tables (someone's data) or one from a newer session-ledger.
 */
export const assertLedgerFile = (db: Database.Database): void => {
  // One read transaction: another process may be creating the schema between the two reads.
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw new Error(`schema version ${version} is newer than this session-ledger (${SCHEMA_VERSION})`);
    if (version === 0) {
      const tables = db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number };
      if (tables.n > 0) throw new Error('not a session-ledger store: the file holds other tables');
    }
  })();
};

/** Brings a file up to the current schema in one immediate transaction; several processes may race here. */
export const migrate = (db: Database.Database, onProgress?: MigrationProgress): void => {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(`schema version ${version} is newer than this session-ledger (${SCHEMA_VERSION})`);
    }
    if (version === 0) {
      const tables = db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number };
      if (tables.n > 0) throw new Error('not a session-ledger store: the file holds other tables');
    }
    // Counted once, only when a fill will read every event and someone shows its progress.
    const total = onProgress && version > 0 && version < SCHEMA_VERSION ? eventCount(db) : 0;
    for (let next = version; next < SCHEMA_VERSION; next += 1) {
      db.exec(MIGRATIONS[next]!);
      let done = 0;
      FILLS[next + 1]?.(db, (events) => onProgress?.(next + 1, (done += events), Math.max(total, done)));
    }
    if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
};
