import type { SessionRecord } from '@session-ledger/events';
import type { ConversationState } from './state.js';

/** Records an event that could not apply; folding goes on. */
export const skip = (state: ConversationState, record: SessionRecord, reason: string): void => {
  state.skipped.push({ sessionId: record.sessionId, revision: record.revision, type: record.type, reason });
};
