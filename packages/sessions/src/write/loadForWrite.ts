import { isLedgerError, notFound, type Ledger, type StreamView } from '@session-ledger/core';
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

/** How many times a write decided on the history as read reads and decides again when the segment moved under it. */
const CHECK_ATTEMPTS = 8;

/**
 * A write decided on the history as read (rewrite, compaction) is stored only at the revision it
 * read (`expectedRevision ?? view.revision` in `decideAndWrite`), so a write landing in between is
 * decided against. For a caller who named no revision, the segment moving under it means: read and
 * decide again (a rewrite racing the same rewrite is then a no-op); one who named it gets the
 * refusal. Identical rewrites racing on two server processes were each stored (outside test,
 * session 33, helper-92 F6), as compactions were before session 24.
 */
export const onHistoryAsRead = async <T>(expectedRevision: bigint | undefined, decideAndWrite: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await decideAndWrite();
    } catch (error) {
      if (expectedRevision !== undefined || !isLedgerError(error, 'wrong_expected_version') || attempt >= CHECK_ATTEMPTS) throw error;
    }
  }
};
