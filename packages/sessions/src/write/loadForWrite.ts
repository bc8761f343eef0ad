import type { Ledger } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import type { MessageState } from '@session-ledger/projections';
import { notFound } from '@session-ledger/core';
import { readConversationState, type LoadedConversation } from '../read/loadConversation.js';
import { readSegmentTail, type SegmentTail } from '../read/segmentTail.js';
import { assertWritable } from './writable.js';

/** For writes that depend on history (rewrite, compact, rewind): the writable segment and its folded conversation. */
export const loadForWrite = async (ledger: Ledger, sessionId: string): Promise<{ tail: SegmentTail; loaded: LoadedConversation }> => {
  const tail = await readSegmentTail(ledger.store, checkSafeId(sessionId, 'sessionId'));
  await assertWritable(ledger.store, tail);
  return { tail, loaded: await readConversationState(ledger.store, sessionId) };
};

/** A message of the conversation (any segment), with its index; not_found otherwise. */
export const messageOf = (loaded: LoadedConversation, messageId: string): { index: number; message: MessageState } => {
  const index = loaded.state.messageIndex.get(checkSafeId(messageId, 'messageId'));
  const message = index === undefined ? undefined : loaded.state.messages[index];
  if (index === undefined || !message || message.rewound !== undefined) throw notFound('message', messageId);
  return { index, message };
};
