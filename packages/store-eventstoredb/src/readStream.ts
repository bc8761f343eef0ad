import { BACKWARDS, END, FORWARDS, START, type EventStoreDBClient } from '@eventstore/db-client';
import { withRetry, type ReadStreamOptions, type RecordedEvent } from '@session-ledger/core';
import { checkCount, collect } from './collect.js';
import type { LastRevisions } from './lastRevisions.js';

/**
 * readStream as the port defines it: stream_not_found for a missing or soft-deleted stream,
 * stream_deleted for a tombstoned one (both as the server reports them), inclusive bounds.
 * Reads that the port defines as empty (zero events, backwards from the start, forwards from
 * the end) still ask the server once, so a missing or deleted stream is reported the same way.
 */
export const readStream = async (
  client: EventStoreDBClient,
  stream: string,
  options: ReadStreamOptions = {},
  known?: LastRevisions,
): Promise<RecordedEvent[]> => {
  const max = checkCount(options.maxCount);
  const backwards = options.direction === 'backwards';
  const from = options.fromRevision ?? (backwards ? 'end' : 'start');
  const empty = max === 0 || (backwards && from === 'start') || (!backwards && from === 'end');
  const read = async (direction: typeof FORWARDS | typeof BACKWARDS, fromRevision: bigint | typeof START | typeof END, maxCount: number) => {
    try {
      const events = await withRetry(() => collect(client.readStream(stream, { direction, fromRevision, maxCount }), { stream }));
      known?.learn(stream, events, direction === BACKWARDS ? fromRevision === END : events.length < maxCount);
      return events;
    } catch (error) {
      known?.forget(stream);
      throw error;
    }
  };
  if (empty) {
    await read(BACKWARDS, END, 1);
    return [];
  }
  return read(
    backwards ? BACKWARDS : FORWARDS,
    from === 'start' ? START : from === 'end' ? END : from,
    max ?? Number.MAX_SAFE_INTEGER,
  );
};
