import type { ReadAllOptions, ReadStreamOptions, RecordedEvent } from './envelope.js';
import { invalidInput } from './errors.js';

const checkCount = (maxCount: number | undefined): number => {
  if (maxCount === undefined) return Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(maxCount) || maxCount < 0) throw invalidInput(`maxCount must be a whole number: ${maxCount}`);
  return maxCount;
};

/** Forwards or backwards from an inclusive revision, at most maxCount; `events` in revision order. */
export const readStreamWindow = (events: RecordedEvent[], opts: ReadStreamOptions): RecordedEvent[] => {
  const max = checkCount(opts.maxCount);
  const backwards = opts.direction === 'backwards';
  const from = opts.fromRevision ?? (backwards ? 'end' : 'start');
  const selected = backwards
    ? events.filter((event) => from === 'end' || (from !== 'start' && event.revision <= from)).reverse()
    : events.filter((event) => from === 'start' || (from !== 'end' && event.revision >= from));
  if (!backwards && from === 'end') return [];
  if (backwards && from === 'start') return [];
  return selected.slice(0, max);
};

/** The same over $all, by inclusive commit position; `events` in position order. */
export const readAllWindow = (events: RecordedEvent[], opts: ReadAllOptions): RecordedEvent[] => {
  const max = checkCount(opts.maxCount);
  const backwards = opts.direction === 'backwards';
  const from = opts.fromPosition ?? (backwards ? 'end' : 'start');
  if (!backwards && from === 'end') return [];
  if (backwards && from === 'start') return [];
  if (backwards) {
    const out: RecordedEvent[] = [];
    for (let i = events.length - 1; i >= 0 && out.length < max; i -= 1) {
      const event = events[i]!;
      if (from === 'end' || event.position <= (from as bigint)) out.push(event);
    }
    return out;
  }
  const out: RecordedEvent[] = [];
  for (const event of events) {
    if (out.length >= max) break;
    if (from === 'start' || event.position >= (from as bigint)) out.push(event);
  }
  return out;
};
