import { deterministicId, invalidInput, newId } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import type { ConversationState } from '@session-ledger/projections';
import type { LoadedConversation } from '../read/loadConversation.js';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { runSegment, writeResultOf } from './runSegment.js';
import { loadForWrite, messageOf, unchanged } from './loadForWrite.js';

export interface CompactInput extends Conditional {
  /** Every active item (messages and earlier summaries) up to and including this message leaves the active view. */
  throughMessageId?: string;
  /** Or exactly these messages. */
  messageIds?: string[];
  /** What replaces them in the model's context. */
  summary: string;
  /** Caller-given (a known id makes the call a no-op) or a new UUID. */
  summaryId?: string;
}

const inActiveContext = (state: ConversationState, index: number, id: string): void => {
  const message = state.messages[index]!;
  if (index < state.activeStart) throw invalidInput(`Message ${id} is before the active context (it was compressed)`, 'messageIds');
  if (message.compacted) throw invalidInput(`Message ${id} is compacted already (by ${message.compactedBy})`, 'messageIds');
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
    return;
  }
  if (input.messageIds!.length === 0) throw invalidInput('Name at least one message to compact', 'messageIds');
  for (const id of input.messageIds!) inActiveContext(state, messageOf(loaded, id).index, id);
};

/** In-place compaction: the named history leaves the active view (replaced by the summary at its place) and stays in display. */
export const compactHistory = async (
  context: WriterContext,
  sessionId: string,
  input: CompactInput,
): Promise<WriteResult & { summaryId: string }> => {
  const { view, loaded } = await loadForWrite(context.ledger, sessionId);
  const known = input.summaryId === undefined ? undefined : loaded.state.summaryIndex.get(checkSafeId(input.summaryId, 'summaryId'));
  if (known !== undefined) return { ...unchanged(sessionId, view), summaryId: input.summaryId! };
  checkTarget(loaded, input);
  const summaryId = input.summaryId ?? newId();
  const target = input.throughMessageId !== undefined ? { throughMessageId: input.throughMessageId } : { messageIds: input.messageIds! };
  const data = { ...target, summary: input.summary, summaryId, compactedAt: nowOf(context).toISOString() };
  const events = [{ id: deterministicId(sessionId, 'history.compacted', summaryId), type: 'history.compacted' as const, data }];
  return { ...writeResultOf(sessionId, await runSegment(context.ledger, { kind: 'append', sessionId, events }, input.expectedRevision)), summaryId };
};
