import type { SessionRecordOf } from '@session-ledger/events';
import { skip } from './skip.js';
import type { ConversationState, MessageState } from './state.js';

export const applyAppended = (state: ConversationState, record: SessionRecordOf<'message.appended'>): void => {
  const { messageId, ...fields } = record.data;
  if (state.messageIndex.has(messageId)) return skip(state, record, `duplicate message id ${messageId}`);
  const message: MessageState = { ...fields, id: messageId, sessionId: record.sessionId, revision: record.revision, versions: [], compactedBy: null, rewound: null };
  state.messageIndex.set(messageId, state.messages.length);
  state.messages.push(message);
};

/** In place: the id stays, the content changes, the earlier content stays reachable in `versions`. */
export const applyRewritten = (state: ConversationState, record: SessionRecordOf<'message.rewritten'>): void => {
  const { messageId, content, rewrittenAt } = record.data;
  const index = state.messageIndex.get(messageId);
  const message = index === undefined ? undefined : state.messages[index];
  if (!message) return skip(state, record, `unknown message ${messageId}`);
  message.versions.push({ content: message.content, replacedAt: rewrittenAt, rewrittenIn: record.sessionId });
  message.content = content;
};

/** Rewound messages leave the display and active views; unknown ids are skipped, known ones still apply. */
export const applyRewound = (state: ConversationState, record: SessionRecordOf<'history.rewound'>): void => {
  const { messageIds, reason, rewoundAt } = record.data;
  for (const id of messageIds) {
    const index = state.messageIndex.get(id);
    const message = index === undefined ? undefined : state.messages[index];
    if (!message) skip(state, record, `unknown message ${id}`);
    else if (message.rewound === null) message.rewound = reason === undefined ? { rewoundAt } : { reason, rewoundAt };
  }
};
