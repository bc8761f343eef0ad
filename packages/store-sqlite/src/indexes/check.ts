import type Database from 'better-sqlite3';
import type { IndexCheck, IndexFinding } from '@session-ledger/core';
import { notAPosition, positionText } from '../damaged.js';


/**
 * The store's own indexes against its events, in the caller's read transaction (one snapshot):
 * - SQLite's `integrity_check` (pages, free list, every real index against its table);
 * - the watermarks in `ledger_meta`: `positions.floor` and `ids.indexed_through` are positions, and
 *   the id index claims no position past the highest ever given (events above it would never be indexed);
 * - `indexed_ids` against `events`, both ways: an event at or below the watermark that the index lacks
 *   (a retry of it under expectedRevision 'any' could be stored again: the store's appendToStream and
 *   the ledger past the stream's 64 newest events look ids up there), and an index row naming no
 *   stored event (an append of that id under 'any' could be refused as a conflict).
 * Deletes erase a stream's rows from both tables in one transaction, so a clean file has neither.
 */
export const checkIndexes = (db: Database.Database, max: number): IndexCheck => {
  const findings: IndexFinding[] = [];
  let total = 0;
  const found = (finding: Omit<IndexFinding, 'stream' | 'revision' | 'position'> & Partial<IndexFinding>) => {
    total += 1;
    if (findings.length < max) findings.push({ stream: null, revision: null, position: null, ...finding });
  };

  for (const line of db.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>) {
    if (line.integrity_check !== 'ok') found({ message: `SQLite integrity_check: ${line.integrity_check}` });
  }
  const meta = db.prepare('SELECT value FROM ledger_meta WHERE key = ?').pluck();
  const floorText = meta.get('positions.floor');
  if (floorText !== undefined && positionText(floorText) === null) found({ message: notAPosition('positions.floor', floorText) });
  const throughText = meta.get('ids.indexed_through');
  const through = positionText(throughText);
  if (through === null) {
    found({ message: `${notAPosition('ids.indexed_through', throughText)}: the id index cannot be checked` });
    return { findings, total };
  }
  const highest = db
    .prepare('SELECT max(coalesce((SELECT max(position) FROM events), 0), coalesce((SELECT position FROM log_leaves ORDER BY leaf_index DESC LIMIT 1), 0))')
    .pluck()
    .safeIntegers(true)
    .get() as bigint;
  const floor = positionText(floorText) ?? 0n;
  const last = highest > floor ? highest : floor;
  if (through > last) {
    found({ message: `ledger_meta 'ids.indexed_through' is ${through}, past the highest position given (${last}): the ids of events appended up to it would never be indexed` });
  }
  const unindexed = db
    .prepare('SELECT stream, revision, position, id FROM events e WHERE position <= ? AND NOT EXISTS (SELECT 1 FROM indexed_ids i WHERE i.stream = e.stream AND i.id = e.id AND i.revision = e.revision) ORDER BY position')
    .safeIntegers(true);
  for (const row of unindexed.iterate(through) as IterableIterator<{ stream: string; revision: bigint; position: bigint; id: string }>) {
    found({ stream: row.stream, revision: row.revision, position: row.position, message: `event ${row.id} is not in the id index (indexed through position ${through}): a retry of it under expectedRevision 'any' could be stored again` });
  }
  const orphans = db
    .prepare('SELECT stream, revision, id FROM indexed_ids i WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.stream = i.stream AND e.revision = i.revision AND e.id = i.id) ORDER BY stream, revision')
    .safeIntegers(true);
  for (const row of orphans.iterate() as IterableIterator<{ stream: string; revision: bigint; id: string }>) {
    found({ stream: row.stream, revision: row.revision, message: `the id index names event ${row.id} here, and no such event is stored: an append of that id under expectedRevision 'any' could be refused as a conflict` });
  }
  return { findings, total };
};
