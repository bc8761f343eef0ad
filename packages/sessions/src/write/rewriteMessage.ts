import { newId } from '@session-ledger/core';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { runSegment, writeResultOf } from './runSegment.js';
import { loadForWrite, messageOf, onHistoryAsRead, unchanged } from './loadForWrite.js';

/**
 * Rewrites a message in place (same id) of any segment of the conversation; the event goes to the
 * tip `sessionId`. Display shows the latest content, earlier ones stay in `versions`. Writing the
 * content the message already has is a no-op (so a retried rewrite stores nothing).
 */
export const rewriteMessage = async (
  context: WriterContext,
  sessionId: string,
  messageId: string,
  content: string | null,
  input: Conditional & { reason?: string } = {},
): Promise<WriteResult & { messageId: string }> => {
  return onHistoryAsRead(input.expectedRevision, async () => {
    const { view, loaded } = await loadForWrite(context.ledger, sessionId);
    const { message } = messageOf(loaded, messageId);
    if (message.content === content) return { ...unchanged(sessionId, view), messageId };
    const data = { messageId, content, previous: message.content, rewrittenAt: nowOf(context).toISOString(), ...(input.reason === undefined ? {} : { reason: input.reason }) };
    const events = [{ id: newId(), type: 'message.rewritten' as const, data }];
    // At the revision read: the content compared above is the one it replaces.
    return { ...writeResultOf(sessionId, await runSegment(context.ledger, { kind: 'append', sessionId, events }, input.expectedRevision ?? view.revision)), messageId };
  });
};
