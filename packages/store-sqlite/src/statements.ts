import type Database from 'better-sqlite3';
import type { StoredEventText } from '@session-ledger/core';

export interface StreamRow {
  last_revision: bigint;
  first_live: bigint;
  tombstoned: bigint;
}

/** An events row as read: the columns of core's StoredEventText. */
export type EventRow = StoredEventText;

const COLUMNS = 'position, stream, revision, id, type, data, metadata, created';

/**
 * A stream's last revision. Since schema version 2 an append writes no `streams` row (one page
 * less per commit): the row's last_revision is a floor, set when the stream is created or
 * deleted, and the events themselves carry the rest (found on the (stream, revision) index).
 */
const LAST_REVISION = 'max(last_revision, coalesce((SELECT max(revision) FROM events WHERE events.stream = streams.name), -1))';

/** Every statement the store runs. */
const SQL = {
  stream: `SELECT ${LAST_REVISION} AS last_revision, first_live, tombstoned FROM streams WHERE name = ?`,
  upsertStream: `INSERT INTO streams (name, last_revision, first_live, tombstoned) VALUES (?, ?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET last_revision = excluded.last_revision,
      first_live = excluded.first_live, tombstoned = excluded.tombstoned`,
  /** The position given (positions.ts): no AUTOINCREMENT since schema version 5. */
  insertEvent: 'INSERT INTO events (position, stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  idAt: 'SELECT id FROM events WHERE stream = ? AND revision = ?',
  positionAt: 'SELECT position FROM events WHERE stream = ? AND revision = ?',
  eraseStream: 'DELETE FROM events WHERE stream = ?',
  /** The ids of the erased events: one key range of indexed_ids (see schema.ts, versions 3 and 6); those not indexed yet go with their rows. */
  eraseStreamIds: 'DELETE FROM indexed_ids WHERE stream = ?',
  forwards: `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
  backwards: `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
  allForwards: `SELECT ${COLUMNS} FROM events WHERE position >= ? ORDER BY position LIMIT ?`,
  allBackwards: `SELECT ${COLUMNS} FROM events WHERE position <= ? ORDER BY position DESC LIMIT ?`,
  lastPosition: 'SELECT max(position) FROM events',
  lastEventRevision: 'SELECT max(revision) FROM events WHERE stream = ?',
  lastRevision: `SELECT ${LAST_REVISION} FROM streams WHERE name = ?`,
  listStreams: `SELECT name, ${LAST_REVISION} AS last_revision, first_live, tombstoned FROM streams
    WHERE ${LAST_REVISION} >= 0 OR tombstoned = 1 ORDER BY name`,
  readCheckpoint: 'SELECT position FROM checkpoints WHERE name = ?',
  storeCheckpoint:
    'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
} as const;

const PLUCKED = new Set(['idAt', 'positionAt', 'lastPosition', 'lastEventRevision', 'lastRevision', 'readCheckpoint']);

export type Statements = Record<keyof typeof SQL, Database.Statement>;

/** Prepared once per connection, all with 64-bit integers as bigint; single-value reads plucked. */
export const prepareStatements = (db: Database.Database): Statements => {
  const out = {} as Statements;
  for (const [name, text] of Object.entries(SQL) as Array<[keyof typeof SQL, string]>) {
    const statement = db.prepare(text).safeIntegers(true);
    out[name] = PLUCKED.has(name) ? statement.pluck() : statement;
  }
  return out;
};
