import type { ChildLink, Link, MessageAppended, TurnOutcome } from '@session-ledger/events';
import { MessageIndex } from './messageIndex.js';

/** One segment (stream `session-<id>`) of a logical conversation, as folded so far. */
export interface SegmentState {
  sessionId: string;
  parentId: string | null;
  link: Link | null;
  startedAt: string;
  /** The last revision folded: what a conditional write or an ETag names. */
  revision: bigint;
  /** How many messages of the conversation precede this segment's first one. */
  firstMessage: number;
  model?: string;
  source?: string;
  title?: string;
  /** The compression child named by `session.continued` (set even while that child is not started; null again once withdrawn). */
  continuedIn: string | null;
  ended: { reason?: string; endedAt: string } | null;
  /** Delegated and branched conversations started from this segment. */
  children: Array<{ childId: string; link: ChildLink; linkedAt: string }>;
}

/** A content a rewrite replaced: it stays reachable. */
export interface MessageVersion {
  content: string | null;
  /** When the next version replaced it. */
  replacedAt: string;
  /** The segment holding the rewrite (a rewrite of an older message lands in the tip). */
  rewrittenIn: string;
}

/**
 * A message with its rewrites applied, kept in the shape the display view shows it (`compacted`,
 * `compactedBy`, `rewritten` kept current by the fold): displayView hands these very objects out
 * instead of copying 100k of them per view. `versions` are the earlier contents, oldest first.
 * Fold code that changes a message must keep the display fields consistent; once a view is taken
 * the objects are only changed through immer drafts (advanceConversation), which copy on write.
 */
export type MessageState = Omit<MessageAppended, 'messageId'> & {
  id: string;
  sessionId: string;
  revision: bigint;
  compacted: boolean;
  /** The compaction summary that took it out of the active view; undefined (and absent from JSON) while active. */
  compactedBy?: string;
  rewritten: boolean;
  versions: MessageVersion[];
  /**
   * Taken back (rewind, undo, superseded by a copy): out of the active and display views, kept in raw.
   * Absent until then, so a displayed message carries no key the display view does not have.
   */
  rewound?: { reason?: string; rewoundAt: string };
};

/** A summary that stands in the active view for what it replaced. */
export interface SummaryState {
  summaryId: string;
  sessionId: string;
  source: 'compaction' | 'compression';
  summary: string;
  at: string;
  /** The message index it stands at in the active view. */
  anchor: number;
  /** How many messages it took out of the active view. */
  replaced: number;
  /** A later compaction or compression that replaced this summary in turn. */
  supersededBy: string | null;
}

/** Where something happened between messages, for a person reading the display view. */
export type Marker =
  | { kind: 'compaction'; index: number; sessionId: string; summaryId: string; summary: string; replaced: number; at: string }
  | { kind: 'compression'; index: number; sessionId: string; childId: string; summaryId: string; summary: string; at: string }
  | { kind: 'child'; index: number; sessionId: string; childId: string; link: ChildLink; at: string }
  | { kind: 'ended'; index: number; sessionId: string; reason?: string; at: string }
  | { kind: 'reopened'; index: number; sessionId: string; at: string }
  /** The segment's continuation into `childId` was withdrawn: it takes messages again, and the child stands as a conversation of its own. */
  | { kind: 'withdrawn'; index: number; sessionId: string; childId: string; at: string };

export interface TurnState {
  turnId: string;
  /** The segment where it began. */
  sessionId: string;
  owner: string;
  startedAt: string;
  leaseExpiresAt: string;
  ended: { outcome: TurnOutcome; endedAt: string } | null;
}

/** An event that could not apply (unknown message, duplicate id, ...): kept, never fatal. */
export interface SkippedEvent {
  sessionId: string;
  revision: bigint;
  type: string;
  reason: string;
}

/** The fold of one logical conversation, root segment first. Views are derived from it. */
export interface ConversationState {
  rootId: string | null;
  tipId: string | null;
  segments: SegmentState[];
  segmentIndex: Map<string, number>;
  messages: MessageState[];
  /** Message id -> index in `messages` (every message, rewound ones included). */
  messageIndex: MessageIndex;
  summaries: SummaryState[];
  summaryIndex: Map<string, number>;
  markers: Marker[];
  turns: TurnState[];
  turnIndex: Map<string, number>;
  /** Index of the first message of the active context (the tip's first message after a compression). */
  activeStart: number;
  /** Messages below this index are compacted by a through-compaction (never below activeStart). */
  compactedThrough: number;
  /** How many messages are rewound: while 0 (the usual case) views need not look for them. */
  rewoundMessages: number;
  /**
   * Whether each segment's messages are one index range, firstMessage up to the next segment's (a
   * fold takes segments root first). False once a message lands in an earlier segment after a later
   * one started (advancing a state with a foreign append to a sealed segment).
   */
  segmentRanges: boolean;
  lastActivity: string | null;
  skipped: SkippedEvent[];
}

/** `expectedMessages`: how many messages the fold may file (sizes the index once; more still fit). */
export const emptyConversation = (expectedMessages = 0): ConversationState => ({
  rootId: null,
  tipId: null,
  segments: [],
  segmentIndex: new Map(),
  messages: [],
  messageIndex: new MessageIndex(expectedMessages),
  summaries: [],
  summaryIndex: new Map(),
  markers: [],
  turns: [],
  turnIndex: new Map(),
  activeStart: 0,
  compactedThrough: 0,
  rewoundMessages: 0,
  segmentRanges: true,
  lastActivity: null,
  skipped: [],
});
