import { deterministicId } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { runSegment, writeResultOf } from './runSegment.js';

/**
 * Ends the conversation at its tip: later writes are refused with session_ended. Ending twice is a
 * no-op. While a live turn holds the session only that turn may end it (`turnId`); otherwise
 * session_active, as for a deletion.
 */
export const endSession = async (context: WriterContext, sessionId: string, input: Conditional & { reason?: string; turnId?: string } = {}): Promise<WriteResult> => {
  const now = nowOf(context);
  const data = { endedAt: now.toISOString(), ...(input.reason === undefined ? {} : { reason: input.reason }) };
  const command = { kind: 'end', sessionId: checkSafeId(sessionId, 'sessionId'), eventId: deterministicId(sessionId, 'session.ended'), data, now, ...(input.turnId === undefined ? {} : { turnId: input.turnId }) } as const;
  return writeResultOf(sessionId, await runSegment(context.ledger, command, input.expectedRevision));
};
