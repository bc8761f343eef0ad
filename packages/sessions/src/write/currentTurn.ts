import type { Ledger } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import { isLeaseLive } from '@session-ledger/projections';
import { sessionActive, turnNotFound } from '../errors.js';
import { readSegmentTail, type SegmentTail, type TurnInfo } from '../read/segmentTail.js';
import { assertWritable } from './writable.js';

/**
 * `turnId` must be the segment's latest turn (`latest`): another turn that is live holds the session
 * (session_active); an unknown or superseded turn is turn_not_found. Whether it has ended is the
 * caller's to judge (ending it again is a no-op, renewing or writing in it is refused).
 */
export const ownTurn = (sessionId: string, turnId: string, latest: TurnInfo | null, now: Date): TurnInfo => {
  if (latest && latest.turnId !== turnId && !latest.ended && isLeaseLive(latest.leaseExpiresAt, now)) {
    throw sessionActive(sessionId, latest.turnId, sessionId);
  }
  if (!latest || latest.turnId !== turnId) throw turnNotFound(sessionId, turnId);
  return latest;
};

/** Reads a writable segment and its latest turn, which must be `turnId` (see ownTurn). */
export const readOwnTurn = async (
  ledger: Ledger,
  sessionId: string,
  turnId: string,
  now: Date,
): Promise<{ tail: SegmentTail; turn: TurnInfo }> => {
  const tail = await readSegmentTail(ledger.store, checkSafeId(sessionId, 'sessionId'), { turns: true });
  await assertWritable(ledger.store, tail);
  return { tail, turn: ownTurn(sessionId, checkSafeId(turnId, 'turnId'), tail.turn, now) };
};
