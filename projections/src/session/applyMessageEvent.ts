import type { MessageAppended, SessionRecordOf } from '@session-ledger/events';
import { skip } from './skip.js';
import type { ConversationState, MessageState, MessageVersion } from './state.js';

/** Shared by every message never rewritten (a rewrite replaces it with the message's own array). */
const NO_VERSIONS: MessageVersion[] = Object.freeze([]) as unknown as MessageVersion[];

/**
 * The message fields, copied one by one (no rest/spread on the hot path), keys in the display view's
 * order. This is the ONLY object made per message: the display view reuses it (see MessageState).
 */
const fullMessage = (data: MessageAppended, sessionId: string, revision: bigint): MessageState => ({
  id: data.messageId,
  sessionId,
  revision,
  role: data.role,
  content: data.content,
  toolCalls: data.toolCalls,
  toolCallId: data.toolCallId,
  toolName: data.toolName,
  tokenCounts: data.tokenCounts,
  timestamp: data.timestamp,
  turnId: data.turnId,
  finishReason: data.finishReason,
  reasoning: data.reasoning,
  extra: data.extra,
  compacted: false,
  compactedBy: undefined,
  rewritten: false,
  versions: NO_VERSIONS,
});

/**
 * A plain text message (none of the eight optional fields set, most of a long session): 10 fields
 * instead of 18. Making these objects is the larger part of the fold, and its cost follows their size.
 * Same keys in the same order minus the undefined ones, which JSON leaves out anyway: the views' JSON
 * is byte for byte the same. Two shapes only, so readers stay fast.
 */
const plainMessage = (data: MessageAppended, sessionId: string, revision: bigint): MessageState => ({
  id: data.messageId,
  sessionId,
  revision,
  role: data.role,
  content: data.content,
  timestamp: data.timestamp,
  compacted: false,
  compactedBy: undefined,
  rewritten: false,
  versions: NO_VERSIONS,
});

const isPlain = (data: MessageAppended): boolean =>
  data.toolCalls === undefined &&
  data.toolCallId === undefined &&
  data.toolName === undefined &&
  data.tokenCounts === undefined &&
  data.turnId === undefined &&
  data.finishReason === undefined &&
  data.reasoning === undefined &&
  data.extra === undefined;

const messageOf = (data: MessageAppended, sessionId: string, revision: bigint): MessageState =>
  isPlain(data) ? plainMessage(data, sessionId, revision) : fullMessage(data, sessionId, revision);

export const applyAppended = (state: ConversationState, record: SessionRecordOf<'message.appended'>): void => {
  const { messageId } = record.data;
  // Filed at index messages.length, which the push below makes true.
  if (state.messageIndex.add(messageId) !== undefined) return skip(state, record, `duplicate message id ${messageId}`);
  state.messages.push(messageOf(record.data, record.sessionId, record.revision));
};

/** In place: the id stays, the content changes, the earlier content stays reachable in `versions`. */
export const applyRewritten = (state: ConversationState, record: SessionRecordOf<'message.rewritten'>): void => {
  const { messageId, content, rewrittenAt } = record.data;
  const index = state.messageIndex.get(messageId);
  const message = index === undefined ? undefined : state.messages[index];
  if (!message) return skip(state, record, `unknown message ${messageId}`);
  message.versions = [...message.versions, { content: message.content, replacedAt: rewrittenAt, rewrittenIn: record.sessionId }];
  message.content = content;
  message.rewritten = true;
};

/**
 * Rewound messages leave the display and active views; unknown ids are skipped, known ones still apply.
 * The `rewound` key is added only here (rare), so displayed messages never carry it.
 */
export const applyRewound = (state: ConversationState, record: SessionRecordOf<'history.rewound'>): void => {
  const { messageIds, reason, rewoundAt } = record.data;
  for (const id of messageIds) {
    const index = state.messageIndex.get(id);
    const message = index === undefined ? undefined : state.messages[index];
    if (!message) skip(state, record, `unknown message ${id}`);
    else if (message.rewound === undefined) {
      message.rewound = reason === undefined ? { rewoundAt } : { reason, rewoundAt };
      state.rewoundMessages += 1;
    }
  }
};
