import type { EventLog, LeafRange, LogEntry, ParallelScanner } from './port.js';
import { scanRange, type RangeScan, type ScanRow, type ScanSource } from './scanRange.js';

/** A LogEntry as a scan row (integers as numbers: one past 2^53 no longer reads as safe, and the scan refuses it). */
export const scanRowOf = (entry: LogEntry): ScanRow => ({
  index: entry.index,
  position: Number(entry.position),
  stream: entry.stream,
  revision: Number(entry.revision),
  leafHash: Buffer.isBuffer(entry.leafHash) && entry.leafHash.length === 32 ? entry.leafHash.toString('hex') : '',
  isDeletion: entry.isDeletion,
  deletion: entry.deletion,
  event: entry.event && { ...entry.event, position: Number(entry.event.position), revision: Number(entry.event.revision) },
});

/** A scan source over `EventLog.entries` (which cannot tell strays: verify asks `strays()`). */
export const entriesSource =
  (log: EventLog): ScanSource =>
  async (from, max) => ({ rows: (await log.entries(from, max)).map(scanRowOf), strays: null });

/**
 * Range scans one after another on this thread, over `entries`: what a parallel scanner does, without
 * the threads (tests split a small log into ranges of a few leaves with it).
 */
export const inProcessScanner = (log: EventLog): ParallelScanner => ({
  workers: 1,
  async scan(ranges: LeafRange[], cut: number | null, onScanned?: (scan: RangeScan) => void) {
    const out: RangeScan[] = [];
    for (const range of ranges) {
      const scan = await scanRange(entriesSource(log), range.from, range.to, cut);
      out.push(scan);
      onScanned?.(scan);
      if (!scan.clean) break;
    }
    return out;
  },
});
