import type { ConversationState, SegmentState } from './state.js';

/** One segment as every view lists it; `revision` is what the view was read at (an ETag names these). */
export type SegmentView = Omit<SegmentState, 'firstMessage'> & {
  /** Messages appended in this segment that are displayed (rewound ones are not counted). */
  messages: number;
};

export const segmentsView = (state: ConversationState): SegmentView[] => {
  const counts = new Map<string, number>();
  for (const message of state.messages) {
    if (message.rewound === undefined) counts.set(message.sessionId, (counts.get(message.sessionId) ?? 0) + 1);
  }
  return state.segments.map(({ firstMessage: _first, ...segment }) => ({ ...segment, messages: counts.get(segment.sessionId) ?? 0 }));
};
