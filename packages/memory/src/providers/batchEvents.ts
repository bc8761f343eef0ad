import { readStreamState, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { MAX_BATCH_OPERATIONS } from '../batchSchema.js';

/** Where an event stands in its batch (metadata `batch`, written by the decider: one append for the whole batch). */
interface BatchPlace {
  id: string;
  index: number;
  size: number;
}

const batchPlaceOf = (event: RecordedEvent): BatchPlace | null => {
  const batch = event.metadata.batch;
  if (typeof batch !== 'object' || batch === null || Array.isArray(batch)) return null;
  const { id, index, size } = batch;
  if (typeof id !== 'string' || !Number.isSafeInteger(index) || !Number.isSafeInteger(size)) return null;
  const place = { id, index: index as number, size: size as number };
  return place.index >= 0 && place.index < place.size && place.size <= MAX_BATCH_OPERATIONS ? place : null;
};

/** The events at `from` and after in the stream, at most `count`; [] when the stream is gone. */
const readRun = async (store: EventStore, stream: string, from: bigint, count: number): Promise<RecordedEvent[]> => {
  if (from < 0n) return [];
  const read = await readStreamState(store, stream, { fromRevision: from, maxCount: count });
  return read.state === 'live' ? read.events : [];
};

/** Whether `events` are the batch `id`, indexes 0.. in order (what one append of the decider stored). */
const isWholeBatch = (events: readonly RecordedEvent[], id: string, size: number): boolean =>
  events.length === size && events.every((event, index) => {
    const place = batchPlaceOf(event);
    return place !== null && place.id === id && place.index === index && place.size === size;
  });

/**
 * The events a provider receives for one stored memory event, so that a batch (one atomic append)
 * reaches a provider's copy at once: before, the mirror wrote MEMORY.md after each operation, and
 * Hermes could read (and keep, after a kill -9) a state between two operations that the ledger never
 * held, over budget included (outside test, session 26, F3).
 * - An event before its batch's last one: [] (handled with the last one, stored in the same append).
 * - The batch's last event: the whole batch, read back from its stream, in order.
 * - An event in no batch, or one whose batch does not line up in its stream (data written behind the
 *   decider's back): the event alone, delivered as before.
 * The checkpoint may pass the earlier events while the last is pending: after a crash the last one is
 * delivered again and reads the whole batch back, and providers skip what they applied (by position).
 */
export const batchEventsAt = async (store: EventStore, event: RecordedEvent): Promise<RecordedEvent[]> => {
  const place = batchPlaceOf(event);
  if (place === null || place.size === 1) return [event];
  const first = event.revision - BigInt(place.index);
  const batch = await readRun(store, event.streamName, first, place.size);
  if (!isWholeBatch(batch, place.id, place.size) || batch[place.index]!.id !== event.id) return [event];
  return place.index === place.size - 1 ? batch : [];
};
