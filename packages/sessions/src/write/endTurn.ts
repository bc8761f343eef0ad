import { deterministicId } from '@session-ledger/core';
import { checkSafeId, type TurnOutcome } from '@session-ledger/events';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { runSegment, writeResultOf } from './runSegment.js';

/** Ends the session's current turn (outcome `completed` unless given); ending a turn that has ended already is a no-op, and `duplicate` with another outcome given. */
export const endTurn = async (
  context: WriterContext,
  sessionId: string,
  turnId: string,
  input: Conditional & { outcome?: TurnOutcome } = {},
): Promise<WriteResult & { turnId: string }> => {
  checkSafeId(sessionId, 'sessionId');
  const eventId = deterministicId(sessionId, 'turn.ended', checkSafeId(turnId, 'turnId'));
  const command = { kind: 'end_turn', sessionId, eventId, turnId, outcome: input.outcome, now: nowOf(context) } as const;
  return { ...writeResultOf(sessionId, await runSegment(context.ledger, command, input.expectedRevision)), turnId };
};
