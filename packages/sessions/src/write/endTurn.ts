import { deterministicId } from '@session-ledger/core';
import type { TurnOutcome } from '@session-ledger/events';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { appendToSegment } from './appendToSegment.js';
import { readOwnTurn } from './currentTurn.js';

/** Ends the session's current turn; ending a turn that has ended already is a no-op. */
export const endTurn = async (
  context: WriterContext,
  sessionId: string,
  turnId: string,
  input: Conditional & { outcome?: TurnOutcome } = {},
): Promise<WriteResult & { turnId: string }> => {
  const now = nowOf(context);
  const { tail, turn } = await readOwnTurn(context.ledger, sessionId, turnId, now);
  if (turn.ended) return { sessionId, revision: tail.revision, position: tail.head.position, written: false, turnId };
  const result = await appendToSegment(context.ledger, sessionId, { expectedRevision: input.expectedRevision, tail }, () => [
    {
      id: deterministicId(sessionId, 'turn.ended', turnId),
      type: 'turn.ended',
      data: { turnId, outcome: input.outcome ?? 'completed', endedAt: now.toISOString() },
    },
  ]);
  return { ...result, turnId };
};
