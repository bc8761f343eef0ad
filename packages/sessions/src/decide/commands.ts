import type { ChildLink, SessionContinued, SessionEvent, SessionEventDataMap, TurnOutcome } from '@session-ledger/events';

/** A session event with its event id. */
export type IdentifiedEvent = SessionEvent & { id: string };

/** A message ready to decide on: its id, the event id derived from its content, and its event data. */
export interface PreparedMessage {
  messageId: string;
  eventId: string;
  data: SessionEventDataMap['message.appended'];
  /** The caller-given message's canonical text, its event id's digest (absent for a new id: it can never be a retry). */
  digest?: string;
}

/**
 * A message of the batch an ancestor segment of the lineage holds (compression parents, nearest
 * first), as the writer read it: `same` when it is stored there with the content given now.
 */
export interface LineageMessage {
  sessionId: string;
  same: boolean;
}

/**
 * The commands a segment decides. Ids, times and anything random are chosen by the writer before
 * deciding (so the decider is pure), and event ids of retryable writes derive from what the caller
 * gave: a retry carries the same ids, another write never does.
 */
/**
 * What a compression child's stream holds, as the writer read it before deciding: `free` (never
 * written, or soft-deleted), `ours` (it starts as this segment's compression child), `taken` (a
 * live stream that is not: another session, or the segment itself) or `deleted` (tombstoned).
 */
export type ChildStream = 'free' | 'ours' | 'taken' | 'deleted';

/** A child id with what its stream held when the writer read it. */
export interface ObservedChild {
  childId: string;
  stream: ChildStream;
}

export type SegmentCommand =
  | { kind: 'start'; sessionId: string; eventId: string; data: SessionEventDataMap['session.started'] }
  | { kind: 'link_child'; sessionId: string; eventId: string; childId: string; link: ChildLink; at: string }
  /**
   * `lineageTurnIds`: the turn ids the segment's compression ancestors began (read by the writer when
   * the decider asked for them, `lineageNeeded`; absent: not read).
   */
  | { kind: 'begin_turn'; sessionId: string; eventId: string; turnId: string; owner: string; leaseExpiresAt: string; now: Date; lineageTurnIds?: ReadonlySet<string> }
  | { kind: 'renew_lease'; sessionId: string; eventId: string; turnId: string; leaseExpiresAt: string; now: Date }
  | { kind: 'end_turn'; sessionId: string; eventId: string; turnId: string; /** absent: `completed`, and any ended turn's retry */ outcome?: TurnOutcome; now: Date }
  /** `now` is read only to fence the turns named (none named: no clock reading). */
  /**
   * `lineage`: the batch's messages the segment's compression ancestors hold (read by the writer when
   * the decider asked for it, `lineageNeeded`; absent: not read).
   */
  | { kind: 'append_messages'; sessionId: string; messages: PreparedMessage[]; turnIds: readonly string[]; now?: Date; lineage?: ReadonlyMap<string, LineageMessage> }
  /**
   * `childGiven`: the caller named the child; otherwise the same summary is what makes a retry the
   * same compression. `child`: what the new child's stream holds; `pending`: what the stream of the
   * child the segment's stored continuation names held (read by the writer; absent: not read).
   */
  | { kind: 'continue'; sessionId: string; eventId: string; continued: SessionContinued; childGiven: boolean; child: ChildStream; pending?: ObservedChild }
  /** `turnId`: the live turn ending it (another live turn refuses the end); `now` fences the turns. */
  | { kind: 'end'; sessionId: string; eventId: string; data: SessionEventDataMap['session.ended']; turnId?: string; now: Date }
  /** `eventId`: the id of the first reopen; a later one (after another end) derives its own from it and the ends so far. */
  | { kind: 'reopen'; sessionId: string; eventId: string; reopenedAt: string }
  /** Rewrite, compaction, rewind: decided against the whole conversation by the writer; here the segment must be open. */
  | { kind: 'append'; sessionId: string; events: IdentifiedEvent[] };

export type SegmentCommandKind = SegmentCommand['kind'];
export type CommandOf<K extends SegmentCommandKind> = Extract<SegmentCommand, { kind: K }>;
