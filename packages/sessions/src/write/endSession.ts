import { deterministicId } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { readSegmentTail } from '../read/segmentTail.js';
import { appendToSegment } from './appendToSegment.js';

/** Ends the conversation at its tip: later writes are refused with session_ended. Ending twice is a no-op. */
export const endSession = async (context: WriterContext, sessionId: string, input: Conditional & { reason?: string } = {}): Promise<WriteResult> => {
  const tail = await readSegmentTail(context.ledger.store, checkSafeId(sessionId, 'sessionId'));
  if (tail.ended) return { sessionId, revision: tail.revision, position: tail.head.position, written: false };
  return appendToSegment(context.ledger, sessionId, { expectedRevision: input.expectedRevision, tail }, () => [
    {
      id: deterministicId(sessionId, 'session.ended'),
      type: 'session.ended',
      data: { endedAt: nowOf(context).toISOString(), ...(input.reason === undefined ? {} : { reason: input.reason }) },
    },
  ]);
};
