import { invalidInput, isLedgerError, sessionStream, type Ledger } from '@session-ledger/core';
import { checkSafeId, encodeSessionEvent, type SessionEvent } from '@session-ledger/events';
import type { WriteResult } from '../context.js';
import { sessionDeleted, sessionNotFound } from '../errors.js';
import { readAt } from '../read/segmentEvents.js';
import { readSegmentTail, type SegmentTail } from '../read/segmentTail.js';
import { noteAppended } from './turnFence.js';
import { assertWritable } from './writable.js';

/** A session event with its (deterministic) event id. */
export type IdentifiedEvent = SessionEvent & { id: string };

const CLOSING = new Set(['session.continued', 'session.ended']);

/**
 * Per ledger: for each segment, a revision whose event is known not to close the segment. Events
 * never change, so a conditional append at that revision needs no read to know the segment is open.
 */
const knownOpen = new WeakMap<Ledger, Map<string, bigint>>();

const openRevisions = (ledger: Ledger) => {
  let map = knownOpen.get(ledger);
  if (!map) knownOpen.set(ledger, (map = new Map()));
  return map;
};

/** Turns a refused append into the session's own words: deleted, sealed (naming the tip), ended or not found. */
const explainRefusal = async (ledger: Ledger, sessionId: string, error: unknown): Promise<unknown> => {
  if (isLedgerError(error, 'stream_deleted')) return sessionDeleted(sessionId);
  if (!isLedgerError(error, 'wrong_expected_version')) return error;
  if (error.details.actual === 'no_stream') return sessionNotFound(sessionId);
  try {
    await assertWritable(ledger.store, await readSegmentTail(ledger.store, sessionId));
  } catch (refusal) {
    return refusal;
  }
  return error;
};

export interface AppendPlan {
  expectedRevision?: bigint;
  /** A tail the caller read already (saves a read). */
  tail?: SegmentTail;
}

/**
 * The one write path of the writer API: validates each event against its current schema, refuses
 * sealed, ended and deleted segments, and appends through the hash-chained ledger conditionally on
 * the expected revision (read first when the caller gives none). `build` receives the revision
 * the append is conditional on, for deterministic ids.
 */
export const appendToSegment = async (
  ledger: Ledger,
  sessionId: string,
  plan: AppendPlan,
  build: (expected: bigint) => IdentifiedEvent[],
): Promise<WriteResult> => {
  checkSafeId(sessionId, 'sessionId');
  let tail = plan.tail ?? null;
  let expected: bigint;
  if (plan.expectedRevision === undefined) {
    tail ??= await readSegmentTail(ledger.store, sessionId);
    await assertWritable(ledger.store, tail);
    expected = tail.revision;
  } else {
    expected = plan.expectedRevision;
    if (expected < 0n) throw sessionNotFound(sessionId);
    if (openRevisions(ledger).get(sessionId) !== expected) {
      const at = tail?.revision === expected ? tail.head : await readAt(ledger.store, sessionId, expected);
      if (at && CLOSING.has(at.type)) await assertWritable(ledger.store, await readSegmentTail(ledger.store, sessionId));
    }
  }
  const built = build(expected);
  if (built.length === 0) throw invalidInput('Nothing to append');
  const events = built.map((event) => ({ id: event.id, ...encodeSessionEvent(event) }));
  const replayed = plan.expectedRevision === undefined && tail ? tail.recentIds.get(events[0]!.id) : undefined;
  if (tail && replayed !== undefined) {
    return { sessionId, revision: tail.revision, position: tail.head.position, written: false };
  }
  let result;
  try {
    result = await ledger.append(sessionStream(sessionId), events, { expectedRevision: expected });
  } catch (error) {
    throw await explainRefusal(ledger, sessionId, error);
  }
  if (CLOSING.has(events[events.length - 1]!.type)) openRevisions(ledger).delete(sessionId);
  else openRevisions(ledger).set(sessionId, result.nextExpectedRevision);
  noteAppended(ledger, sessionId, expected, result.nextExpectedRevision, events, result.written !== false);
  const out: WriteResult = { sessionId, revision: result.nextExpectedRevision, position: result.position };
  if (result.written !== undefined) out.written = result.written;
  return out;
};
