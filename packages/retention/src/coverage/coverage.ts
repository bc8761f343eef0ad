import type { SegmentEvents, LoadedConversation } from '@session-ledger/sessions';
import type { CoveredStream, Lineage } from '../types.js';

/** One logical conversation an export covers. */
export interface CoveredConversation {
  rootId: string;
  tipId: string;
  /** null: the conversation asked for; 'delegation': a delegated child of a covered conversation. */
  link: 'delegation' | null;
  /** For a delegated child: the segment it was started from. */
  parentId: string | null;
  /** 0 for the conversation asked for, 1 for its delegated children, and so on. */
  depth: number;
  /** Every segment read and folded (the whole chain, even when only the tip is covered). */
  loaded: LoadedConversation;
  /** The segments covered: root..tip, or the tip alone. */
  segments: SegmentEvents[];
}

/** What one read of a conversation covers: the conversations, and each stream at the revision it was read at. */
export interface Coverage {
  requestedId: string;
  lineage: Lineage;
  /** The conversation asked for first, then delegated children breadth first. */
  conversations: CoveredConversation[];
  /** In export order: conversation by conversation, each root to tip. */
  streams: CoveredStream[];
}

export const sessionIdsOf = (coverage: Coverage): string[] => coverage.streams.map((stream) => stream.sessionId);
