import { BACKWARDS, END, FORWARDS, START, type EventStoreDBClient } from '@eventstore/db-client';
import { invalidInput, withRetry, type ReadAllOptions, type RecordedEvent } from '@session-ledger/core';
import { checkCount, collect } from './collect.js';
import { isInvalidPosition, mapClientError } from './errors.js';
import { isHidden } from './hidden.js';
import { toClientPosition } from './positions.js';

const PAGE = 500;

/** Positions that ended a recent readAll, so that "last + 1" can be read from "last" (see below). */
export const boundaryMemory = (size = 64) => {
  const seen: bigint[] = [];
  return {
    remember: (position: bigint) => {
      seen.push(position);
      if (seen.length > size) seen.shift();
    },
    has: (position: bigint) => seen.includes(position),
  };
};
export type BoundaryMemory = ReturnType<typeof boundaryMemory>;

type Cursor = bigint | typeof START | typeof END;

const page = (client: EventStoreDBClient, direction: typeof FORWARDS | typeof BACKWARDS, from: Cursor, maxCount: number) =>
  withRetry(async () => {
    try {
      return await collect(
        client.readAll({ direction, fromPosition: typeof from === 'bigint' ? toClientPosition(from) : from, maxCount }),
        {},
      );
    } catch (error) {
      throw isInvalidPosition(error) ? invalidInput(`No event starts at position ${String(from)}`, 'fromPosition') : error;
    }
  });

const invalidPosition = (error: unknown) => error instanceof Error && 'details' in error && (error as { details?: { field?: string } }).details?.field === 'fromPosition';

/**
 * readAll with the port's semantics on EventStoreDB's: system events and checkpoint streams are
 * hidden (and never count towards maxCount), and both bounds are inclusive.
 *
 * EventStoreDB positions are byte offsets of log records: a position that is not the start of a
 * record is refused. Callers page with "last position + 1", so forwards reads from such a
 * position start at the remembered last position and drop it; a position the adapter has not
 * seen is tried as given, then as "one after" the position before it. Backwards reads on the
 * server exclude their start position, so the event at an explicit start is fetched forwards.
 */
export const readAll = async (
  client: EventStoreDBClient,
  options: ReadAllOptions,
  boundaries: BoundaryMemory,
): Promise<RecordedEvent[]> => {
  const max = checkCount(options.maxCount) ?? Number.POSITIVE_INFINITY;
  const backwards = options.direction === 'backwards';
  const from = options.fromPosition ?? (backwards ? 'end' : 'start');
  if (max === 0 || (!backwards && from === 'end') || (backwards && from === 'start')) return [];
  const out: RecordedEvent[] = [];
  const want = (skip: number) => Math.min(PAGE, max - out.length + skip);
  const take = (event: RecordedEvent) => {
    if (!isHidden(event) && out.length < max) out.push(event);
  };
  try {
    if (!backwards) {
      let cursor: Cursor = from === 'start' ? START : (from as bigint);
      let lowest = typeof cursor === 'bigint' ? cursor : -1n;
      if (typeof cursor === 'bigint' && cursor > 0n && boundaries.has(cursor - 1n)) cursor -= 1n;
      for (;;) {
        const requested = want(typeof cursor === 'bigint' && cursor < lowest ? 1 : 0);
        let events: RecordedEvent[];
        try {
          events = await page(client, FORWARDS, cursor, requested);
        } catch (error) {
          if (!invalidPosition(error) || typeof cursor !== 'bigint' || cursor < lowest || cursor === 0n) throw error;
          cursor -= 1n;
          continue;
        }
        for (const event of events) if (event.position >= lowest) take(event);
        if (events.length < requested || out.length >= max) break;
        const last = events[events.length - 1]!.position;
        cursor = last;
        lowest = last + 1n;
      }
    } else {
      let cursor: Cursor = from === 'end' ? END : (from as bigint);
      let below: bigint | null = typeof cursor === 'bigint' ? cursor : null;
      if (typeof cursor === 'bigint') {
        const at = await page(client, FORWARDS, cursor, 1).catch((error: unknown) => {
          if (invalidPosition(error)) return [];
          throw error;
        });
        if (at[0] && at[0].position === cursor) take(at[0]);
      }
      while (out.length < max) {
        const requested = want(1);
        const events = await page(client, BACKWARDS, cursor, requested);
        for (const event of events) if (below === null || event.position < below) take(event);
        if (events.length < requested) break;
        const last = events[events.length - 1]!.position;
        cursor = last;
        below = last;
      }
    }
  } catch (error) {
    throw mapClientError(error);
  }
  const last = out[out.length - 1];
  if (last && !backwards) boundaries.remember(last.position);
  return out;
};
