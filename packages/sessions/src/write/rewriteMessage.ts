import { deterministicId } from '@session-ledger/core';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { appendToSegment } from './appendToSegment.js';
import { loadForWrite, messageOf } from './loadForWrite.js';

/**
 * Rewrites a message in place (same id) of any segment of the conversation; the event goes to the
 * tip `sessionId`. Display shows the latest content, earlier ones stay in `versions`. Writing the
 * content the message already has is a no-op.
 */
export const rewriteMessage = async (
  context: WriterContext,
  sessionId: string,
  messageId: string,
  content: string | null,
  input: Conditional & { reason?: string } = {},
): Promise<WriteResult & { messageId: string }> => {
  const { tail, loaded } = await loadForWrite(context.ledger, sessionId);
  const { message } = messageOf(loaded, messageId);
  if (message.content === content) return { sessionId, revision: tail.revision, position: tail.head.position, written: false, messageId };
  const result = await appendToSegment(context.ledger, sessionId, { expectedRevision: input.expectedRevision, tail }, (expected) => [
    {
      id: deterministicId(sessionId, 'message.rewritten', messageId, expected),
      type: 'message.rewritten',
      data: {
        messageId,
        content,
        previous: message.content,
        rewrittenAt: nowOf(context).toISOString(),
        ...(input.reason === undefined ? {} : { reason: input.reason }),
      },
    },
  ]);
  return { ...result, messageId };
};
