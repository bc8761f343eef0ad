import type { Ledger } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import { isLeaseLive } from '@session-ledger/projections';
import { sessionActive, turnNotFound } from '../errors.js';
import { readSegmentTail, type SegmentTail, type TurnInfo } from '../read/segmentTail.js';
import { assertWritable } from './writable.js';

/**
 * Reads a writable segment and its latest turn, which must be `turnId`. Another turn that is live
 * holds the session (session_active); an unknown or superseded turn is turn_not_found.
 */
export const readOwnTurn = async (
  ledger: Ledger,
  sessionId: string,
  turnId: string,
  now: Date,
): Promise<{ tail: SegmentTail; turn: TurnInfo }> => {
  const tail = await readSegmentTail(ledger.store, checkSafeId(sessionId, 'sessionId'), { turns: true });
  await assertWritable(ledger.store, tail);
  const turn = tail.turn;
  checkSafeId(turnId, 'turnId');
  if (turn && turn.turnId !== turnId && !turn.ended && isLeaseLive(turn.leaseExpiresAt, now)) {
    throw sessionActive(sessionId, turn.turnId, sessionId);
  }
  if (!turn || turn.turnId !== turnId) throw turnNotFound(sessionId, turnId);
  return { tail, turn };
};
