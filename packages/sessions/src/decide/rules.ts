import { holdsSegment, type LatestTurn, type SegmentWriteState } from '@session-ledger/projections';
import { ledgerError } from '@session-ledger/core';
import { sessionActive, sessionDeleted, sessionEnded, sessionNotFound, sessionSealed, turnNotFound } from '../errors.js';
import type { ChildStream } from './commands.js';

/**
 * The segment rules, once. A segment takes writes while it exists, is not sealed (compressed:
 * write to its tip) and has not ended. The sealed error names the child here; the writer turns it
 * into the tip (a read, outside the decider).
 */
export const assertOpen = (sessionId: string, state: SegmentWriteState): void => {
  if (!state.started) throw sessionNotFound(sessionId);
  if (state.continued) throw sessionSealed(sessionId, state.continued.childId);
  if (state.ended) throw sessionEnded(sessionId);
};

/**
 * `turnId` must be the segment's latest turn: another turn that holds the segment is
 * session_active; an unknown or superseded turn is turn_not_found. An expired lease nobody took
 * over still lets its turn act (the turn id is the fencing token, not the clock).
 */
export const ownTurn = (sessionId: string, turnId: string, latest: LatestTurn | null, now: Date): LatestTurn => {
  if (latest && latest.turnId !== turnId && holdsSegment(latest, now)) throw sessionActive(sessionId, latest.turnId, sessionId);
  if (!latest || latest.turnId !== turnId) throw turnNotFound(sessionId, turnId);
  return latest;
};

/** A turn that must still be open (renewing it, or writing a message in it). */
export const openTurn = (sessionId: string, turnId: string, latest: LatestTurn | null, now: Date): LatestTurn => {
  const turn = ownTurn(sessionId, turnId, latest, now);
  if (turn.ended) throw turnNotFound(sessionId, turnId, 'has ended');
  return turn;
};

/** A compression child's id must be free or already this segment's child: another stream (live or deleted) can never be started as it. null: not read. */
export const takenChild = (stream: ChildStream | null): boolean => stream === 'taken' || stream === 'deleted';

/** The refusal for a taken child id: `duplicate` for a live stream (another session, or the segment itself), `session_deleted` for a tombstoned one. */
export const childTakenError = (childId: string, stream: ChildStream) =>
  stream === 'deleted'
    ? sessionDeleted(childId)
    : ledgerError('duplicate', `session ${childId} already exists: compress into another childId`, { what: `session ${childId}` });
