import type Database from 'better-sqlite3';
import type { RecordedEvent } from '@session-ledger/core';

/**
 * A persistent read model: a projection whose state lives in SQLite tables. On the embedded store
 * it is kept inline, inside the append's own transaction; on EventStoreDB a durable subscription to
 * $all feeds a local SQLite file. `apply` and `erase` run inside the caller's transaction and use
 * nothing but the events and the tables: no clock, no randomness, no other I/O.
 */
export interface ReadModel {
  /** Stable name, used by `projections status|rebuild NAME` and in the table of read models. */
  readonly name: string;
  /** Bump when the tables or the fold change: a file holding another version is rebuilt from $all. */
  readonly version: number;
  /**
   * How the embedded store keeps it: `inline` (default) folds each append's events in the append's
   * own savepoint; `deferred` leaves appends alone and the next read folds in what was written since
   * (still read-your-writes, at no cost to the append). Deletions erase in the deleting transaction
   * either way.
   */
  readonly upkeep?: 'inline' | 'deferred';
  /** Creates the model's tables (IF NOT EXISTS). */
  create(db: Database.Database): void;
  /** Drops the model's tables; a rebuild is drop, create, then apply every event of $all. */
  drop(db: Database.Database): void;
  /** Folds events, in commit order, into the tables. */
  apply(db: Database.Database, events: readonly RecordedEvent[]): void;
  /** A stream was deleted or tombstoned: every row derived from it leaves the tables. */
  erase(db: Database.Database, stream: string): void;
}
