import type { ReadAllOptions, ReadStreamOptions, RecordedEvent } from './envelope.js';
import { invalidInput } from './errors.js';

const checkCount = (maxCount: number | undefined): number => {
  if (maxCount === undefined) return Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(maxCount) || maxCount < 0) throw invalidInput(`maxCount must be a whole number: ${maxCount}`);
  return maxCount;
};

/** The first index whose key is >= `key` in an array sorted by `keyOf` (binary search). */
export const lowerBound = (events: readonly RecordedEvent[], key: bigint, keyOf: (event: RecordedEvent) => bigint): number => {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keyOf(events[mid]!) < key) low = mid + 1;
    else high = mid;
  }
  return low;
};

const window = (
  events: readonly RecordedEvent[],
  keyOf: (event: RecordedEvent) => bigint,
  backwards: boolean,
  from: 'start' | 'end' | bigint,
  max: number,
): RecordedEvent[] => {
  if (!backwards) {
    if (from === 'end') return [];
    const start = from === 'start' ? 0 : lowerBound(events, from, keyOf);
    return events.slice(start, start + Math.min(max, events.length));
  }
  if (from === 'start') return [];
  const end = from === 'end' ? events.length : lowerBound(events, from + 1n, keyOf);
  return events.slice(Math.max(0, end - max), end).reverse();
};

/** Forwards or backwards from an inclusive revision, at most maxCount; `events` in revision order. */
export const readStreamWindow = (events: readonly RecordedEvent[], opts: ReadStreamOptions): RecordedEvent[] => {
  const backwards = opts.direction === 'backwards';
  return window(events, (event) => event.revision, backwards, opts.fromRevision ?? (backwards ? 'end' : 'start'), checkCount(opts.maxCount));
};

/** The same over $all, by inclusive commit position; `events` in position order. */
export const readAllWindow = (events: readonly RecordedEvent[], opts: ReadAllOptions): RecordedEvent[] => {
  const backwards = opts.direction === 'backwards';
  return window(events, (event) => event.position, backwards, opts.fromPosition ?? (backwards ? 'end' : 'start'), checkCount(opts.maxCount));
};
