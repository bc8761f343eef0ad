import { deterministicId } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { runSegment, writeResultOf } from './runSegment.js';

/**
 * Reopens an ended session: it takes writes again, as a harness that resumes an ended conversation
 * needs (Hermes' `reopen_session`). Reopening an open session is a no-op; a compressed one is
 * session_sealed naming its tip. The display view marks where it was reopened.
 */
export const reopenSession = async (context: WriterContext, sessionId: string, input: Conditional = {}): Promise<WriteResult> => {
  const reopenedAt = nowOf(context).toISOString();
  const command = { kind: 'reopen', sessionId: checkSafeId(sessionId, 'sessionId'), eventId: deterministicId(sessionId, 'session.reopened'), reopenedAt } as const;
  return writeResultOf(sessionId, await runSegment(context.ledger, command, input.expectedRevision));
};
