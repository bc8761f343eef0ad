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
import type { LastRevisions } from './lastRevisions.js';

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
 * One append, decided by the server under its own rules (the same rules core's appendRules.ts
 * encodes): conflicts arrive in the append response and become wrong_expected_version; an append
 * to a tombstoned stream becomes stream_deleted.
 *
 * A retry with the same event ids is idempotent on the server, which answers as for a new write.
 * The port reports whether anything was written, so the adapter compares with the stream's last
 * revision before the append (known from its own writes and reads, or read first: one more
 * round trip): a new write ends past it, a retry ends at or before it. An answer
 * at or before a position already seen is a retry in any case (a new write lands after every
 * existing record). A retry racing its original from another process may report `written: true`.
 */
export const appendToStream = async (
  client: EventStoreDBClient,
  stream: string,
  events: EventData[],
  expected: ExpectedRevision,
  seen: HighWater,
  known: LastRevisions,
): Promise<AppendResult> => {
  validateEvents(events);
  const before = events.length === 0 ? undefined : (known.get(stream) ?? (await tail(client, stream, 1))[0]?.revision ?? -1n);
  let result: Awaited<ReturnType<EventStoreDBClient['appendToStream']>>;
  try {
    result = await mapped({ stream, expected }, () => client.appendToStream(stream, events.map(toClientEvent), { expectedRevision: expected }));
  } catch (error) {
    known.forget(stream);
    throw error;
  }
  if (events.length === 0) {
    // An empty append only checks the expected revision; the server then reports no position.
    const [last] = await tail(client, stream, 1);
    return { nextExpectedRevision: last?.revision ?? -1n, position: last?.position ?? 0n, written: false };
  }
  const position = result.position?.commit ?? -1n;
  const written = result.nextExpectedRevision > before! && !(position >= 0n && position <= seen.position);
  if (position > seen.position) seen.position = position;
  if (written) known.set(stream, result.nextExpectedRevision);
  else known.forget(stream);
  return { nextExpectedRevision: result.nextExpectedRevision, position, written };
};
