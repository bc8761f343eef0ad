import { invalidInput, readStreamState, readWholeStream, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { checkSafeId, decodeSessionEvent, type SessionRecordOf, sessionStream } from '@session-ledger/events';
import { asSessionError, sessionDeleted } from '../errors.js';

/** Reads a whole segment; a missing segment is not_found, a tombstoned one session_deleted. */
export const readSegment = async (store: EventStore, sessionId: string): Promise<RecordedEvent[]> => {
  try {
    return await readWholeStream(store, sessionStream(checkSafeId(sessionId, 'sessionId')));
  } catch (error) {
    throw asSessionError(error, sessionId);
  }
};

/** The newest events of a segment, newest first (at least one: a segment always has its start). */
export const readTail = async (store: EventStore, sessionId: string, count: number, before?: bigint): Promise<RecordedEvent[]> => {
  try {
    const fromRevision = before === undefined ? 'end' : before - 1n;
    if (fromRevision !== 'end' && fromRevision < 0n) return [];
    return await store.readStream(sessionStream(checkSafeId(sessionId, 'sessionId')), { direction: 'backwards', fromRevision, maxCount: count });
  } catch (error) {
    throw asSessionError(error, sessionId);
  }
};

/** The event at one revision, or null when there is none (yet). */
export const readAt = async (store: EventStore, sessionId: string, revision: bigint): Promise<RecordedEvent | null> => {
  try {
    const [event] = await store.readStream(sessionStream(sessionId), { fromRevision: revision, maxCount: 1 });
    return event && event.revision === revision ? event : null;
  } catch (error) {
    throw asSessionError(error, sessionId);
  }
};

/** A segment's first event: its `session.started` (validated). */
export const readStart = async (store: EventStore, sessionId: string): Promise<SessionRecordOf<'session.started'>> => {
  let first: RecordedEvent | undefined;
  try {
    [first] = await store.readStream(sessionStream(checkSafeId(sessionId, 'sessionId')), { maxCount: 1 });
  } catch (error) {
    throw asSessionError(error, sessionId);
  }
  const record = first ? decodeSessionEvent(first) : undefined;
  if (record?.type !== 'session.started') throw invalidInput(`Stream session-${sessionId} does not begin with session.started`, 'sessionId');
  return record;
};

/** Whether a segment stream exists (tombstoned: session_deleted). */
export const segmentExists = async (store: EventStore, sessionId: string): Promise<boolean> => {
  const read = await readStreamState(store, sessionStream(sessionId), { maxCount: 1 });
  if (read.state === 'tombstoned') throw sessionDeleted(sessionId);
  return read.state === 'live';
};
