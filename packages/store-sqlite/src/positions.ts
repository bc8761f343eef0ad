import type Database from 'better-sqlite3';
import { metaPosition } from './damaged.js';

/** Where the next appended event goes in `$all` and in the log (see `nextPositions`). */
export interface Positions {
  /** The position of the next event; inside the write transaction that inserts it (kept, or read). */
  next(): bigint;
  /** The log's size, as the last `next()` knew it (the same statement, the same transaction). */
  logSize(): number;
  /** What an append just wrote, inside the same transaction: the position after its last event and the log's size. */
  wrote(next: bigint, size: number): void;
  /** Drops what `wrote` kept: after a rollback, before a delete (its leaf), after another connection's commit. */
  forget(): void;
}

/**
 * Positions are never reused, even after the events holding the highest ones are erased, without
 * AUTOINCREMENT (schema version 5), whose sqlite_sequence row was one more page in every commit's
 * WAL frames: every event ever appended has a log leaf holding its position, leaves are never
 * removed and their positions never decrease, so the last leaf's position is the highest ever
 * assigned. The events table's own highest position covers a file whose log says less (a leaf-less
 * event inserted behind the store's back, which verify reports as a stray), and the floor the
 * migration kept covers events erased before the file had a log. One statement, two index ends;
 * the log's last leaf also gives the log's size, so an append reads both at once (benchmark row
 * "sqlite single-event appends with the log commitment", issue 13: one statement an append fewer).
 */
export const nextPositions = (db: Database.Database): Positions => {
  const floorText = db.prepare(`SELECT value FROM ledger_meta WHERE key = 'positions.floor'`).pluck().get() as string | undefined;
  const floor = floorText === undefined ? 0n : metaPosition('positions.floor', floorText);
  // Each scalar subquery is one b-tree end (the last leaf read twice stays on its page).
  const ends = db
    .prepare(
      `SELECT (SELECT leaf_index FROM log_leaves ORDER BY leaf_index DESC LIMIT 1),
        (SELECT position FROM log_leaves ORDER BY leaf_index DESC LIMIT 1),
        (SELECT max(position) FROM events)`,
    )
    .raw(true)
    .safeIntegers(true);
  let size = 0;
  /**
   * The next position and the log's size as this connection's last append left them, trusted like
   * the stream states (streamStates.ts): the store drops them when another connection committed
   * (versionWatch.ts), on every rollback and before every delete, which writes a deletion leaf.
   * Saves the statement above (~0.6-0.9 us) for an append after this connection's own (benchmark
   * row "sqlite single-event appends with the log commitment", issue 13: >= 0.7 of plain).
   */
  let kept: bigint | undefined;
  return {
    next() {
      if (kept !== undefined) return kept;
      const [lastLeaf, leafPosition, eventPosition] = ends.get() as [bigint | null, bigint | null, bigint | null];
      size = lastLeaf === null ? 0 : Number(lastLeaf) + 1;
      let at = floor;
      if (leafPosition !== null && leafPosition > at) at = leafPosition;
      if (eventPosition !== null && eventPosition > at) at = eventPosition;
      return at + 1n;
    },
    logSize: () => size,
    wrote(next, logSize) {
      kept = next;
      size = logSize;
    },
    forget() {
      kept = undefined;
    },
  };
};
