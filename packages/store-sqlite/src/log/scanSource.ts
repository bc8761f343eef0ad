import type Database from 'better-sqlite3';
import type { DeletionRecord, ScanRow, ScanSource, StoredNodeTexts } from '@session-ledger/core';
import { nodeSpans } from '@session-ledger/core/scan';
import { STORED_FROM } from './tile.js';
import { deletionRecordOf, type DeletionRow } from './deletionRow.js';

type LeafTuple = [number, number, string, number, string | null, number | null];
type EventTuple = [number, string, number, string, string, string, string, string];

/** Leaves whose stored nodes are read at once (storedNodes). */
const NODE_CHUNK = 32_768;

const SQL = {
  // The hash as hex text: a Buffer per row cost more than the rest of the row (a hash that is no blob reads as null).
  leaves: `SELECT leaf_index, position, stream, revision, CASE WHEN typeof(hash) = 'blob' THEN lower(hex(hash)) END, deletion
    FROM log_leaves WHERE leaf_index >= ? ORDER BY leaf_index LIMIT ?`,
  events: 'SELECT position, stream, revision, id, type, data, metadata, created FROM events WHERE position >= ? AND position <= ? ORDER BY position',
  eventAt: 'SELECT position, stream, revision, id, type, data, metadata, created FROM events WHERE position = ?',
  deletion: 'SELECT id, stream, kind, from_revision, head_revision, head_hash, first_leaf, last_leaf, log_size, at FROM log_deletions WHERE id = ?',
  // A hash as binary text (latin1: each byte one character), as the scan computes nodes; a cell that is no 32-byte blob reads as ''.
  nodes: `SELECT idx, CASE WHEN typeof(hash) = 'blob' AND length(hash) = 32 THEN hash ELSE x'' END FROM log_nodes WHERE level = ? AND idx >= ? AND idx <= ?`,
};

const eventOf = (row: EventTuple | undefined): ScanRow['event'] =>
  row ? { position: row[0], stream: row[1], revision: row[2], id: row[3], type: row[4], data: row[5], metadata: row[6], created: row[7] } : null;

/**
 * The leaves and their events as a range scan reads them (scanRange in core): two ordered scans
 * merged, the leaves by index and the events by position, instead of a three-table join per leaf;
 * integers as numbers (a value past 2^53 reads inexactly, and the scan refuses any but safe
 * integers); raw rows. The merge is exact only while the page's leaf positions grow: a page where
 * they do not (a tampered log) reads each leaf's event by its position, as the join does.
 */
export const sqliteScanSource = (db: Database.Database): ScanSource => {
  const leaves = db.prepare(SQL.leaves).raw(true);
  const events = db.prepare(SQL.events).raw(true);
  const eventAt = db.prepare(SQL.eventAt).raw(true);
  const deletion = db.prepare(SQL.deletion).safeIntegers(true);
  const nodes = db.prepare(SQL.nodes).raw(true);
  /**
   * The stored nodes a chunk of leaves completes (ScanPage.nodes), one indexed range per level, read
   * for NODE_CHUNK leaves at once and handed to every page inside: read per page of 2,000 leaves, the
   * node queries slowed verify's worker threads by a quarter (benchmark row "audit verify of
   * 1,000,000 events written before schema 7").
   */
  let chunk: { from: number; to: number; nodes: StoredNodeTexts } | null = null;
  const storedNodes = (from: number, to: number, rangeEnd: number): StoredNodeTexts => {
    if (chunk && from >= chunk.from && to <= chunk.to) return chunk.nodes;
    // Never past the range's end: the next range is most often another worker's (at 1,000,000 leaves,
    // ranges of 16,384: reading 32,768 leaves' nodes read each node twice).
    const end = Math.max(to, Math.min(from + NODE_CHUNK, rangeEnd));
    const out: StoredNodeTexts = [];
    for (const { level, first, last } of nodeSpans(from, end, STORED_FROM)) {
      const rows = nodes.all(level, first, last) as Array<[number, Buffer]>;
      if (rows.length > 0) out[level] = new Map(rows.map(([index, hash]) => [index, hash.toString('latin1')]));
    }
    chunk = { from, to: end, nodes: out };
    return out;
  };
  const recordOf = (id: number): DeletionRecord | null => {
    const row = deletion.get(id) as DeletionRow | undefined;
    return row ? deletionRecordOf(row) : null;
  };
  return (from, max, after, rangeEnd) =>
    db.transaction(() => {
      const page = leaves.all(from, max) as LeafTuple[];
      let first = Infinity;
      let last = after ?? -Infinity;
      let ordered = true;
      for (const [, position, , , , deletionId] of page) {
        if (deletionId !== null) continue;
        if (typeof position !== 'number' || position <= last) ordered = false;
        first = Math.min(first, position);
        last = position;
      }
      // Every event from the one after `after` (or the first leaf's) through the last leaf's: those no leaf holds are strays.
      const stored = ordered && first !== Infinity ? (events.all(after === null ? first : after + 1, last) as EventTuple[]) : [];
      let at = 0;
      let matched = 0;
      const rows = page.map(([index, position, stream, revision, hash, deletionId]): ScanRow => {
        const isDeletion = deletionId !== null;
        let event: ScanRow['event'] = null;
        if (!isDeletion && ordered) {
          while (at < stored.length && stored[at]![0] < position) at += 1;
          if (at < stored.length && stored[at]![0] === position) {
            event = eventOf(stored[at]);
            matched += 1;
          }
        } else if (!isDeletion) event = eventOf(eventAt.get(position) as EventTuple | undefined);
        // A deletion id past 2^53 would read as another: no record, so the scan leaves it to the join.
        const record = isDeletion && Number.isSafeInteger(deletionId) ? recordOf(deletionId) : null;
        return { index, position, stream, revision, leafHash: hash ?? '', isDeletion, deletion: record, event };
      });
      const span = page.length === 0 ? null : { from: Number(page[0]![0]), to: Number(page[page.length - 1]![0]) + 1 };
      return { rows, strays: ordered ? stored.length - matched : null, ...(span ? { nodes: storedNodes(span.from, span.to, rangeEnd) } : {}) };
    })();
};
