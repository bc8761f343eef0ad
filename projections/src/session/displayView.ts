import type { ConversationState, Marker, MessageState, TurnState } from './state.js';
import { segmentsView, type SegmentView } from './segmentsView.js';

/**
 * A message as a person sees it: latest content, earlier versions reachable, compaction marked.
 * The fold keeps every message in this shape, so a displayed message is the state's own object.
 */
export type DisplayMessage = Omit<MessageState, 'rewound'>;

/** The whole logical conversation, root to tip, compacted originals included; rewound messages left out. */
export interface DisplayView {
  rootId: string;
  tipId: string;
  segments: SegmentView[];
  messages: DisplayMessage[];
  /** Compactions, compressions, child links and ends, each at the index in `messages` where it happened. */
  markers: Marker[];
  turns: TurnState[];
  lastActivity: string | null;
  /**
   * A conversation started by a reset: how many of `messages` (the first ones) come from the
   * conversations it reset, and their segments, oldest first, at the revisions read (afterReset).
   * Absent otherwise.
   */
  earlier?: { messages: number; segments: SegmentView[] };
}

/**
 * A copy of one message in its display shape (`rewound` left out), field by field (one shape, no
 * rest/spread). The views themselves do not copy: this is for callers that need a detached message.
 */
export const displayMessage = (message: MessageState): DisplayMessage => ({
  id: message.id,
  sessionId: message.sessionId,
  revision: message.revision,
  role: message.role,
  content: message.content,
  toolCalls: message.toolCalls,
  toolCallId: message.toolCallId,
  toolName: message.toolName,
  tokenCounts: message.tokenCounts,
  timestamp: message.timestamp,
  turnId: message.turnId,
  finishReason: message.finishReason,
  reasoning: message.reasoning,
  extra: message.extra,
  compacted: message.compacted,
  compactedBy: message.compactedBy,
  rewritten: message.rewritten,
  versions: message.versions,
});

/**
 * Which messages are shown, and shown[i]: how many displayed messages precede message i (marker
 * indexes move past rewound ones). Without a rewound message (the usual case) the list is a copy of
 * the state's array and no index table is needed.
 */
const shownMessages = (state: ConversationState): { messages: DisplayMessage[]; shown: number[] | null } => {
  const all = state.messages;
  if (state.rewoundMessages === 0) return { messages: all.slice(), shown: null };
  let firstRewound = 0;
  while (firstRewound < all.length && all[firstRewound]!.rewound === undefined) firstRewound += 1;
  const messages: DisplayMessage[] = all.slice(0, firstRewound);
  const shown = new Array<number>(all.length + 1);
  for (let index = 0; index < firstRewound; index += 1) shown[index] = index;
  for (let index = firstRewound; index < all.length; index += 1) {
    shown[index] = messages.length;
    const message = all[index]!;
    if (message.rewound === undefined) messages.push(message);
  }
  shown[all.length] = messages.length;
  return { messages, shown };
};

/**
 * The displayed messages are the fold's own objects (one object per message in the whole job, not
 * two): nothing mutates them after this returns, because a finished fold is only advanced through an
 * immer draft (advanceConversation), which copies a message before changing it.
 */
export const displayView = (state: ConversationState): DisplayView => {
  const { messages, shown } = shownMessages(state);
  return {
    rootId: state.rootId ?? '',
    tipId: state.tipId ?? '',
    segments: segmentsView(state),
    messages,
    markers: state.markers.map((marker) => ({ ...marker, index: shown === null ? marker.index : (shown[marker.index] ?? messages.length) })),
    turns: state.turns,
    lastActivity: state.lastActivity,
  };
};
