import type Database from 'better-sqlite3';

/** Where the next appended event goes in `$all` (see `nextPositions`). */
export interface Positions {
  /** The position of the next event; read inside the write transaction that inserts it. */
  next(): bigint;
}

/**
 * Positions are never reused, even after the events holding the highest ones are erased, without
 * AUTOINCREMENT (schema version 5), whose sqlite_sequence row was one more page in every commit's
 * WAL frames: every event ever appended has a log leaf holding its position, leaves are never
 * removed and their positions never decrease, so the last leaf's position is the highest ever
 * assigned. The events table's own highest position covers a file whose log says less (a leaf-less
 * event inserted behind the store's back, which verify reports as a stray), and the floor the
 * migration kept covers events erased before the file had a log. One statement, two index ends.
 */
export const nextPositions = (db: Database.Database): Positions => {
  const floorText = db.prepare(`SELECT value FROM ledger_meta WHERE key = 'positions.floor'`).pluck().get() as string | undefined;
  const floor = floorText === undefined ? 0n : BigInt(floorText);
  const highest = db
    .prepare(
      `SELECT max(coalesce((SELECT position FROM log_leaves ORDER BY leaf_index DESC LIMIT 1), 0),
        coalesce((SELECT max(position) FROM events), 0))`,
    )
    .pluck()
    .safeIntegers(true);
  return {
    next() {
      const at = highest.get() as bigint;
      return (at > floor ? at : floor) + 1n;
    },
  };
};
