import type { ConversationState, SegmentState } from './state.js';

/** One segment as every view lists it; `revision` is what the view was read at (an ETag names these). */
export type SegmentView = Omit<SegmentState, 'firstMessage'> & {
  /** Messages appended in this segment that are displayed (rewound ones are not counted). */
  messages: number;
};

/** Rewound messages in [from, to): none to look for unless the fold saw a rewind. */
const rewoundIn = (state: ConversationState, from: number, to: number): number => {
  if (state.rewoundMessages === 0) return 0;
  let count = 0;
  for (let index = from; index < to; index += 1) if (state.messages[index]!.rewound !== undefined) count += 1;
  return count;
};

/** Counted message by message: for a state whose segments' messages are not index ranges. */
const countedEach = (state: ConversationState): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const message of state.messages) {
    if (message.rewound === undefined) counts.set(message.sessionId, (counts.get(message.sessionId) ?? 0) + 1);
  }
  return counts;
};

/**
 * A fold takes segments root first, each whole, so segment i's messages are the index range from
 * its firstMessage to the next segment's: counted per segment, not per message (see segmentRanges).
 */
export const segmentsView = (state: ConversationState): SegmentView[] => {
  const counts = state.segmentRanges ? null : countedEach(state);
  return state.segments.map(({ firstMessage, ...segment }, index) => {
    if (counts) return { ...segment, messages: counts.get(segment.sessionId) ?? 0 };
    const end = state.segments[index + 1]?.firstMessage ?? state.messages.length;
    return { ...segment, messages: end - firstMessage - rewoundIn(state, firstMessage, end) };
  });
};
