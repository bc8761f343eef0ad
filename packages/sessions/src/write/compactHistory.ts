import { deterministicId, invalidInput, ledgerError, newId } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import type { ConversationState } from '@session-ledger/projections';
import type { LoadedConversation } from '../read/loadConversation.js';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { runSegment, writeResultOf } from './runSegment.js';
import { loadForWrite, messageOf, onHistoryAsRead, unchanged } from './loadForWrite.js';

export interface CompactInput extends Conditional {
  /** Every active item (messages and earlier summaries) up to and including this message leaves the active view. */
  throughMessageId?: string;
  /** Or exactly these messages. */
  messageIds?: string[];
  /** What replaces them in the model's context. */
  summary: string;
  /** Caller-given (the same compaction again is a no-op, other content under it `duplicate`) or a new UUID. */
  summaryId?: string;
}

const inActiveContext = (state: ConversationState, index: number, id: string): void => {
  const message = state.messages[index]!;
  if (index < state.activeStart) throw invalidInput(`Message ${id} is before the active context (it was compressed)`, 'messageIds');
  if (message.compacted) throw invalidInput(`Message ${id} is compacted already (by ${message.compactedBy})`, 'messageIds');
};

/**
 * A compaction through `index` retires every active summary standing at or before it; one of them may
 * stand for messages after `index` too (compacted through m5, then through m2), and retiring it left
 * those messages in no summary at all (outside test, session 24). Returns such a summary and the last
 * message it stands for.
 */
const widerSummary = (state: ConversationState, index: number): { summaryId: string; lastId: string } | null => {
  const last = new Map<string, number>();
  state.messages.forEach((message, at) => message.compactedBy !== undefined && last.set(message.compactedBy, at));
  // A summary also stands for what the summaries it replaced stood for (the same range summarised
  // again: its messages stay marked with the first summary; missed, outside test, session 24). A
  // summary is replaced only by a later one, so one pass in order carries it down every chain.
  for (const summary of state.summaries) {
    const own = last.get(summary.summaryId);
    if (summary.supersededBy === null || own === undefined) continue;
    last.set(summary.supersededBy, Math.max(last.get(summary.supersededBy) ?? -1, own));
  }
  for (const summary of state.summaries) {
    const end = last.get(summary.summaryId);
    if (summary.supersededBy === null && summary.anchor <= index && end !== undefined && end > index) return { summaryId: summary.summaryId, lastId: state.messages[end]!.id };
  }
  return null;
};

/** Checks the request against the current active view, so a compaction never silently does nothing. */
const checkTarget = (loaded: LoadedConversation, input: CompactInput): void => {
  const { state } = loaded;
  if ((input.throughMessageId === undefined) === (input.messageIds === undefined)) {
    throw invalidInput('Give exactly one of throughMessageId and messageIds', 'throughMessageId');
  }
  if (input.throughMessageId !== undefined) {
    const { index } = messageOf(loaded, input.throughMessageId);
    if (index < state.activeStart) throw invalidInput(`Message ${input.throughMessageId} is before the active context`, 'throughMessageId');
    const start = Math.max(state.activeStart, state.compactedThrough);
    const anyActive =
      state.messages.slice(start, index + 1).some((message) => !message.compacted && message.rewound === undefined) ||
      state.summaries.some((summary) => summary.supersededBy === null && summary.anchor <= index);
    if (!anyActive) throw invalidInput(`Nothing active up to ${input.throughMessageId}`, 'throughMessageId');
    const wider = widerSummary(state, index);
    if (wider) {
      throw invalidInput(
        `Compacting through ${input.throughMessageId} would retire summary ${wider.summaryId}, which also stands for later messages (through ${wider.lastId}), and leave them out of the active view: compact through ${wider.lastId} or later`,
        'throughMessageId',
      );
    }
    return;
  }
  if (input.messageIds!.length === 0) throw invalidInput('Name at least one message to compact', 'messageIds');
  for (const id of input.messageIds!) inActiveContext(state, messageOf(loaded, id).index, id);
};

/**
 * A summary id the conversation holds already: the same compaction of this segment, or of a segment
 * the conversation compressed into this one, is a retry (a no-op); anything else under that id (another summary, another segment, a compression's summary)
 * is refused, as a message id reused for other content is.
 */
const isRetry = (loaded: LoadedConversation, sessionId: string, summaryId: string, input: CompactInput): boolean => {
  const index = loaded.state.summaryIndex.get(summaryId);
  if (index === undefined) return false;
  const stored = loaded.state.summaries[index]!;
  // The same compaction stored in a compression ancestor is a retry too: a harness that follows
  // session_sealed to the tip retries there, and was told "other content" (outside test, session 35,
  // helper-97 F4), as a message retried to the tip is not.
  const ofThisConversation = stored.sessionId === sessionId || loaded.segments.some((segment) => segment.sessionId === stored.sessionId);
  if (stored.source === 'compaction' && ofThisConversation && stored.summary === input.summary) return true;
  throw ledgerError('duplicate', `summary ${summaryId} is already stored in session ${stored.sessionId} with other content`, { what: `summary ${summaryId}` });
};

/** In-place compaction: the named history leaves the active view (replaced by the summary at its place) and stays in display. */
export const compactHistory = async (
  context: WriterContext,
  sessionId: string,
  input: CompactInput,
): Promise<WriteResult & { summaryId: string }> => {
  return onHistoryAsRead(input.expectedRevision, async () => {
    const { view, loaded } = await loadForWrite(context.ledger, sessionId);
    if (input.summaryId !== undefined && isRetry(loaded, sessionId, checkSafeId(input.summaryId, 'summaryId'), input)) {
      return { ...unchanged(sessionId, view), summaryId: input.summaryId };
    }
    checkTarget(loaded, input);
    const summaryId = input.summaryId ?? newId();
    const target = input.throughMessageId !== undefined ? { throughMessageId: input.throughMessageId } : { messageIds: input.messageIds! };
    const data = { ...target, summary: input.summary, summaryId, compactedAt: nowOf(context).toISOString() };
    const events = [{ id: deterministicId(sessionId, 'history.compacted', summaryId), type: 'history.compacted' as const, data }];
    // Stored only at the revision checked: a compaction landing in between is checked against (outside test, session 24).
    return { ...writeResultOf(sessionId, await runSegment(context.ledger, { kind: 'append', sessionId, events }, input.expectedRevision ?? view.revision)), summaryId };
  });
};
