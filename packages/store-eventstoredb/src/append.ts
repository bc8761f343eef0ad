import { BACKWARDS, END, type EventStoreDBClient } from '@eventstore/db-client';
import {
  isLedgerError,
  validateEvents,
  type AppendResult,
  type EventData,
  type ExpectedRevision,
  type RecordedEvent,
} from '@session-ledger/core';
import { collect } from './collect.js';
import { toClientEvent } from './convert.js';
import { mapped } from './errors.js';

/** The highest commit position this adapter has seen a write reach. */
export interface HighWater {
  position: bigint;
}

/** The stream's last `count` events, newest first; [] when it has none to read. */
const tail = async (client: EventStoreDBClient, stream: string, count: number): Promise<RecordedEvent[]> => {
  try {
    return await collect(client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: count }), { stream });
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found') || isLedgerError(error, 'stream_deleted')) return [];
    throw error;
  }
};

/**
 * Whether a successful append of `events` would be a new write, judged from the stream just
 * before it: with an explicit expected revision, only if the stream ends exactly there; otherwise
 * unless the events are already its tail (a retry of the latest append).
 */
const wouldWrite = (before: RecordedEvent[], events: EventData[], expected: ExpectedRevision): boolean => {
  const last = before[0]?.revision ?? -1n;
  if (typeof expected === 'bigint') return last === expected;
  if (expected === 'no_stream') return before.length === 0;
  const ids = before.map((event) => event.id).reverse();
  return !(ids.length === events.length && ids.every((id, index) => id === events[index]!.id));
};

/**
 * One append, decided by the server under its own rules (the same rules core's appendRules.ts
 * encodes): conflicts arrive in the append response and become wrong_expected_version; an append
 * to a tombstoned stream becomes stream_deleted.
 *
 * A retry with the same event ids is idempotent on the server, which answers as for a new write.
 * The port reports whether anything was written, so the adapter reads the stream's end first
 * (one more round trip): a retry finds its events already there. An answer at or before a
 * position already seen is a retry in any case (a new write lands after every existing record).
 * A retry racing its own original write from another process may both report `written: true`.
 */
export const appendToStream = async (
  client: EventStoreDBClient,
  stream: string,
  events: EventData[],
  expected: ExpectedRevision,
  seen: HighWater = { position: -1n },
): Promise<AppendResult> => {
  validateEvents(events);
  const before = events.length === 0 ? [] : await tail(client, stream, typeof expected === 'bigint' ? 1 : events.length);
  const result = await mapped({ stream, expected }, () =>
    client.appendToStream(stream, events.map(toClientEvent), { expectedRevision: expected }),
  );
  if (events.length === 0) {
    // An empty append only checks the expected revision; the server then reports no position.
    const [last] = await tail(client, stream, 1);
    return { nextExpectedRevision: last?.revision ?? -1n, position: last?.position ?? 0n, written: false };
  }
  const position = result.position?.commit ?? -1n;
  const written = wouldWrite(before, events, expected) && !(position >= 0n && position <= seen.position);
  if (position > seen.position) seen.position = position;
  return { nextExpectedRevision: result.nextExpectedRevision, position, written };
};
