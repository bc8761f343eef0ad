import type { LeafRange, ParallelScanner } from './port.js';
import type { PositionSpan } from './scanRange.js';
import { stitchScans, type StitchedPass } from './stitchScans.js';

export interface ParallelOptions {
  /** Logs with fewer leaves are swept on one thread. Default 65,536. */
  minLeaves?: number;
  /** Leaves per range, a power of two. Default: rangeSpan's (about a sixteenth of each worker's share, at least 4,096). */
  span?: number;
  /** The scanner to use instead of the store's (`EventLog.parallel`). */
  scanner?: ParallelScanner;
}

const floorPowerOfTwo = (n: number): number => {
  let power = 1;
  while (power * 2 <= n) power *= 2;
  return power;
};

/**
 * The default range span: about a sixteenth of each worker's share of the leaves (a power of two, at
 * least 4,096). Workers take the next range when done, so they end at most one range apart: at a
 * quarter of a share (16 ranges of 65,536 leaves at 1M on two workers) one worker sat idle for the
 * last range, about 5 % of the verify's time; at a sixteenth about 1 %. A range costs a message and
 * a few hundred bytes of edges, links and heads, nothing per leaf.
 */
export const rangeSpan = (size: number, workers: number): number => Math.max(4096, floorPowerOfTwo(Math.ceil(size / (workers * 16))));

/** [0, size) in ranges of `span` leaves; every range starts at a multiple of span, so its subtrees are the tree's. */
export const leafRanges = (size: number, span: number): LeafRange[] => {
  if (floorPowerOfTwo(span) !== span) throw new RangeError(`a range span must be a power of two, not ${span}`);
  const ranges: LeafRange[] = [];
  for (let from = 0; from < size; from += span) ranges.push({ from, to: Math.min(from + span, size) });
  return ranges;
};

/**
 * The leaf pass of verify split into ranges scanned at once; null when there is no scanner, the log is
 * small, or any range or edge between ranges is not clean (the caller then sweeps the log itself).
 */
export const parallelPass = async (
  scanner: ParallelScanner | undefined,
  size: number,
  cut: number | null,
  options: ParallelOptions,
  onProgress?: (done: number) => void,
): Promise<(StitchedPass & { strays: StraysLeft }) | null> => {
  if (!scanner || size === 0 || size < (options.minLeaves ?? 65_536)) return null;
  const span = options.span ?? rangeSpan(size, scanner.workers);
  let done = 0;
  const scans = await scanner.scan(leafRanges(size, span), cut, (scan) => {
    done += scan.to - scan.from;
    if (scan.clean) onProgress?.(done);
  });
  const pass = scans.length === Math.ceil(size / span) ? stitchScans(scans, cut) : null;
  if (!pass) return null;
  return { ...pass, strays: await straysLeft(scanner, pass.spans) };
};

/**
 * Where strays may still lie after a clean pass: 'none' when the ranges saw none and no stored event
 * lies outside their spans; above the last span's position when only events there do (on a live
 * ledger, those appended since verify read the log's size); else 'anywhere'.
 */
export type StraysLeft = 'none' | 'anywhere' | { after: number };

const straysLeft = async (scanner: ParallelScanner, spans: PositionSpan[] | null): Promise<StraysLeft> => {
  if (spans === null || !scanner.uncovered) return 'anywhere';
  const { inside, above } = await scanner.uncovered(spans);
  if (inside > 0 || (above > 0 && spans.length === 0)) return 'anywhere';
  return above === 0 ? 'none' : { after: spans[spans.length - 1]!.last };
};
