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

/**
 * The events a provider receives for one stored memory event, so that a batch (one atomic append)
 * reaches a provider's copy at once: before, the mirror wrote MEMORY.md after each operation, and
 * Hermes could read (and keep, after a kill -9) a state between two operations that the ledger never
 * held, over budget included (outside test, session 26, F3).
 * - An event before its batch's last one, when that last one is stored (the same append): [] (it
 *   hands this one over). One read of one event.
 * - The batch's last event: the batch's events that handed themselves over to it, in order, and it.
 * - An event in no batch, or whose batch's last event its stream does not hold (data written behind
 *   the decider's back): the event alone, delivered as before.
 * The checkpoint may pass the earlier events while the last is pending: after a crash the last one is
 * delivered again and reads the batch back, and providers skip what they applied (by position).
 */
export const batchEventsAt = async (store: EventStore, event: RecordedEvent): Promise<RecordedEvent[]> => {
  const place = batchPlaceOf(event);
  if (place === null || place.size === 1) return [event];
  const first = event.revision - BigInt(place.index);
  const last = first + BigInt(place.size - 1);
  /** Whether `other` stands in this batch at its own revision. */
  const inBatch = (other: RecordedEvent): boolean => {
    const its = batchPlaceOf(other);
    return its !== null && its.id === place.id && its.size === place.size && other.revision - first === BigInt(its.index);
  };
  if (event.revision !== last) {
    const [closing] = await readRun(store, event.streamName, last, 1);
    return closing !== undefined && closing.revision === last && inBatch(closing) ? [] : [event];
  }
  const run = await readRun(store, event.streamName, first, place.size);
  return [...run.filter((other) => other.revision < last && inBatch(other)), event];
};
