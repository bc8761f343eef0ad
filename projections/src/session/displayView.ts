import type { ConversationState, Marker, MessageState, MessageVersion, TurnState } from './state.js';
import { segmentsView, type SegmentView } from './segmentsView.js';

/** A message as a person sees it: latest content, earlier versions reachable, compaction marked. */
export type DisplayMessage = Omit<MessageState, 'versions' | 'compactedBy' | 'rewound'> & {
  compacted: boolean;
  compactedBy?: string;
  rewritten: boolean;
  versions: MessageVersion[];
};

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
}

/** Field by field (one shape, no rest/spread): this runs once per message of every view. */
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
  compacted: message.compactedBy !== null,
  compactedBy: message.compactedBy ?? undefined,
  rewritten: message.versions.length > 0,
  versions: message.versions,
});

export const displayView = (state: ConversationState): DisplayView => {
  const messages: DisplayMessage[] = [];
  /** shown[i]: how many displayed messages precede message i (marker indexes move past rewound ones). */
  const shown = new Array<number>(state.messages.length + 1);
  state.messages.forEach((message, index) => {
    shown[index] = messages.length;
    if (message.rewound === null) messages.push(displayMessage(message));
  });
  shown[state.messages.length] = messages.length;
  return {
    rootId: state.rootId ?? '',
    tipId: state.tipId ?? '',
    segments: segmentsView(state),
    messages,
    markers: state.markers.map((marker) => ({ ...marker, index: shown[marker.index] ?? messages.length })),
    turns: state.turns,
    lastActivity: state.lastActivity,
  };
};
