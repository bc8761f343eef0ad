import { notFound, type Ledger, type StreamView } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import type { MessageState, SegmentWriteState } from '@session-ledger/projections';
import type { WriteResult } from '../context.js';
import { readConversationState, type LoadedConversation } from '../read/loadConversation.js';
import { loadSegment } from './runSegment.js';

/** For writes that depend on history (rewrite, compact, rewind): the segment's write state and its folded conversation. */
export const loadForWrite = async (ledger: Ledger, sessionId: string): Promise<{ view: StreamView<SegmentWriteState>; loaded: LoadedConversation }> => {
  const view = await loadSegment(ledger, checkSafeId(sessionId, 'sessionId'));
  return { view, loaded: await readConversationState(ledger.store, sessionId) };
};

/** What a write that turned out to be a no-op returns: the segment as it was read. */
export const unchanged = (sessionId: string, view: StreamView<SegmentWriteState>): WriteResult => ({
  sessionId,
  revision: view.revision,
  position: view.position ?? -1n,
  written: false,
});

/** A message of the conversation (any segment), with its index; not_found otherwise. */
export const messageOf = (loaded: LoadedConversation, messageId: string): { index: number; message: MessageState } => {
  const index = loaded.state.messageIndex.get(checkSafeId(messageId, 'messageId'));
  const message = index === undefined ? undefined : loaded.state.messages[index];
  if (index === undefined || !message || message.rewound !== undefined) throw notFound('message', messageId);
  return { index, message };
};
