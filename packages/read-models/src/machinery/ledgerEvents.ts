import type Database from 'better-sqlite3';
import { recordedFromText, type RecordedEvent, type StoredEventText } from '@session-ledger/core';

/**
 * Reads a ledger file's `events` table (schema of @session-ledger/store-sqlite) from inside the
 * store's own transaction: how an inline read model catches up on events written without it. The
 * one place the machinery knows the store's tables.
 */
export const ledgerEvents = (db: Database.Database) => {
  const after = db
    .prepare('SELECT position, stream, revision, id, type, data, metadata, created FROM events WHERE position > ? ORDER BY position LIMIT ?')
    .safeIntegers(true);
  const between = db.prepare('SELECT 1 FROM events WHERE position > ? AND position < ? LIMIT 1').pluck();
  const head = db.prepare('SELECT max(position) FROM events').pluck().safeIntegers(true);
  return {
    /** Up to `max` events after `position`, in commit order. */
    after: (position: bigint, max: number): RecordedEvent[] =>
      (after.all(position, max) as StoredEventText[]).map(recordedFromText),
    /** Whether events were committed between two positions (exclusive). */
    anyBetween: (from: bigint, to: bigint): boolean => between.get(from, to) !== undefined,
    /** The last position, -1 when the ledger is empty. */
    head: (): bigint => (head.get() as bigint | null) ?? -1n,
  };
};

export type LedgerEvents = ReturnType<typeof ledgerEvents>;
