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

export const displayMessage = ({ versions, compactedBy, rewound: _rewound, ...message }: MessageState): DisplayMessage => {
  const out: DisplayMessage = { ...message, compacted: compactedBy !== null, rewritten: versions.length > 0, versions };
  if (compactedBy !== null) out.compactedBy = compactedBy;
  return out;
};

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
