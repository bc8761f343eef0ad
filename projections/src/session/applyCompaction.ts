import type { SessionRecordOf } from '@session-ledger/events';
import { skip } from './skip.js';
import type { ConversationState } from './state.js';

type CompactionRecord = SessionRecordOf<'history.compacted'>;

/** Marks one message of the active context as compacted; returns whether it was still active. */
const take = (state: ConversationState, index: number, summaryId: string): boolean => {
  const message = state.messages[index];
  if (!message || index < state.activeStart || message.compacted || message.rewound !== undefined) return false;
  message.compacted = true;
  message.compactedBy = summaryId;
  return true;
};

/** `throughMessageId`: every active item up to that message, earlier summaries included, leaves the active view. */
const compactThrough = (state: ConversationState, through: number, summaryId: string): { anchor: number; replaced: number } => {
  let anchor = through;
  let replaced = 0;
  for (let index = Math.max(state.compactedThrough, state.activeStart); index <= through; index += 1) {
    if (take(state, index, summaryId)) {
      replaced += 1;
      if (index < anchor) anchor = index;
    }
  }
  for (const summary of state.summaries) {
    if (summary.supersededBy === null && summary.anchor <= through) {
      summary.supersededBy = summaryId;
      if (summary.anchor < anchor) anchor = summary.anchor;
    }
  }
  state.compactedThrough = Math.max(state.compactedThrough, through + 1);
  return { anchor, replaced };
};

/** `messageIds`: exactly those messages leave the active view; the summary stands at the first of them. */
const compactListed = (state: ConversationState, indexes: number[], summaryId: string): { anchor: number; replaced: number } => {
  let anchor = Number.POSITIVE_INFINITY;
  let replaced = 0;
  for (const index of indexes) {
    if (take(state, index, summaryId)) {
      replaced += 1;
      if (index < anchor) anchor = index;
    }
  }
  return { anchor: Number.isFinite(anchor) ? anchor : state.messages.length, replaced };
};

export const applyCompaction = (state: ConversationState, record: CompactionRecord): void => {
  const { throughMessageId, messageIds, summary, summaryId, compactedAt } = record.data;
  if (state.summaryIndex.has(summaryId)) return skip(state, record, `summary ${summaryId} already recorded`);
  let placed: { anchor: number; replaced: number };
  if (throughMessageId !== undefined) {
    const through = state.messageIndex.get(throughMessageId);
    if (through === undefined) return skip(state, record, `unknown message ${throughMessageId}`);
    if (through < state.activeStart) return skip(state, record, `message ${throughMessageId} is before the active context`);
    placed = compactThrough(state, through, summaryId);
  } else {
    const indexes: number[] = [];
    for (const id of messageIds ?? []) {
      const index = state.messageIndex.get(id);
      if (index === undefined) return skip(state, record, `unknown message ${id}`);
      indexes.push(index);
    }
    placed = compactListed(state, indexes, summaryId);
  }
  state.summaryIndex.set(summaryId, state.summaries.length);
  state.summaries.push({ summaryId, sessionId: record.sessionId, source: 'compaction', summary, at: compactedAt, ...placed, supersededBy: null });
  state.markers.push({ kind: 'compaction', index: state.messages.length, sessionId: record.sessionId, summaryId, summary, replaced: placed.replaced, at: compactedAt });
};
