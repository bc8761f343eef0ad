import type { ConversationState, SummaryState } from './state.js';
import { displayMessage, type DisplayMessage } from './displayView.js';
import { segmentsView, type SegmentView } from './segmentsView.js';

export type ActiveMessage = DisplayMessage & { kind: 'message' };

/** A summary standing where the history it replaced was. */
export interface ActiveSummary {
  kind: 'summary';
  id: string;
  sessionId: string;
  role: 'system';
  content: string;
  compacted: false;
  source: SummaryState['source'];
  replaced: number;
  timestamp: string;
}

export type ActiveItem = ActiveMessage | ActiveSummary;

/** What the model sees next: the tip's context, uncompacted messages, summaries in place of history. */
export interface ActiveView {
  rootId: string;
  tipId: string;
  segments: SegmentView[];
  messages: ActiveItem[];
}

const summaryItem = (summary: SummaryState): ActiveSummary => ({
  kind: 'summary',
  id: summary.summaryId,
  sessionId: summary.sessionId,
  role: 'system',
  content: summary.summary,
  compacted: false,
  source: summary.source,
  replaced: summary.replaced,
  timestamp: summary.at,
});

export const activeView = (state: ConversationState): ActiveView => {
  // A summary that is itself one of the messages (an imported row that carries it where it was
  // written) stands in the view as that message, not a second time as a summary item; a summary
  // with no text (an imported compression that left none) gives the model nothing and is left out.
  const open = state.summaries
    .filter((summary) => summary.supersededBy === null && summary.summary !== '' && !state.messageIndex.has(summary.summaryId))
    .sort((a, b) => a.anchor - b.anchor);
  const items: ActiveItem[] = [];
  let next = 0;
  for (let index = state.activeStart; index < state.messages.length; index += 1) {
    while (next < open.length && open[next]!.anchor <= index) items.push(summaryItem(open[next++]!));
    const message = state.messages[index]!;
    if (!message.compacted && message.rewound === undefined) items.push({ kind: 'message', ...displayMessage(message) });
  }
  while (next < open.length) items.push(summaryItem(open[next++]!));
  return { rootId: state.rootId ?? '', tipId: state.tipId ?? '', segments: segmentsView(state), messages: items };
};
