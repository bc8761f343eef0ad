import type { SessionRecordOf } from '@session-ledger/events';
import { skip } from './skip.js';
import type { ConversationState, SegmentState } from './state.js';

type SegmentRecord = SessionRecordOf<'session.continued' | 'session.continuation_withdrawn' | 'session.child_linked' | 'session.ended' | 'session.reopened'>;

/** A compression child opens a new active context: its summary replaces everything before it. */
const openContext = (state: ConversationState, record: SessionRecordOf<'session.started'>): void => {
  const { summary, summaryId, startedAt, openTurn } = record.data;
  const anchor = state.messages.length;
  // The messages it takes out of the active view, as a compaction counts them: the page said "of 0
  // message(s)" for every compression (outside test, session 35, helper-96 F5).
  let replaced = 0;
  for (let index = state.activeStart; index < anchor; index += 1) {
    const message = state.messages[index]!;
    if (!message.compacted && message.rewound === undefined) replaced += 1;
  }
  state.activeStart = anchor;
  state.compactedThrough = anchor;
  for (const open of state.summaries) if (open.supersededBy === null) open.supersededBy = summaryId ?? record.sessionId;
  if (summary !== undefined && summaryId !== undefined && !state.summaryIndex.has(summaryId)) {
    state.summaryIndex.set(summaryId, state.summaries.length);
    state.summaries.push({ summaryId, sessionId: record.sessionId, source: 'compression', summary, at: startedAt, anchor, replaced, supersededBy: null });
  }
  if (openTurn && !state.turnIndex.has(openTurn.turnId)) {
    state.turnIndex.set(openTurn.turnId, state.turns.length);
    state.turns.push({ ...openTurn, sessionId: record.sessionId, startedAt, ended: null });
  }
};

export const applyStarted = (state: ConversationState, record: SessionRecordOf<'session.started'>): void => {
  const { data } = record;
  if (state.segmentIndex.has(record.sessionId)) return skip(state, record, 'segment already started');
  const segment: SegmentState = {
    sessionId: record.sessionId,
    parentId: data.parentId,
    link: data.link,
    startedAt: data.startedAt,
    revision: record.revision,
    firstMessage: state.messages.length,
    continuedIn: null,
    ended: null,
    children: [],
  };
  if (data.model !== undefined) segment.model = data.model;
  if (data.source !== undefined) segment.source = data.source;
  if (data.title !== undefined) segment.title = data.title;
  state.segmentIndex.set(record.sessionId, state.segments.length);
  state.segments.push(segment);
  state.rootId ??= record.sessionId;
  state.tipId = record.sessionId;
  if (data.link === 'compression' && state.segments.length > 1) openContext(state, record);
};

export const applySegmentEvent = (state: ConversationState, segment: SegmentState, record: SegmentRecord): void => {
  const index = state.messages.length;
  const { sessionId } = record;
  switch (record.type) {
    case 'session.continued': {
      const { childId, summary, summaryId, continuedAt } = record.data;
      // A later continuation supersedes the segment's earlier one (whose child id was taken, so it never started): one marker, the latest.
      const marker = { kind: 'compression', index, sessionId, childId, summaryId, summary, at: continuedAt } as const;
      const earlier = segment.continuedIn === null ? -1 : state.markers.findIndex((m) => m.kind === 'compression' && m.sessionId === sessionId);
      segment.continuedIn = childId;
      if (earlier >= 0) state.markers[earlier] = { ...marker, index: state.markers[earlier]!.index };
      else state.markers.push(marker);
      return;
    }
    case 'session.continuation_withdrawn': {
      // The compression marker stays where it happened; the segment is no longer sealed, and its child is no segment of this conversation.
      if (segment.continuedIn !== record.data.childId) return skip(state, record, `not continued in ${record.data.childId}`);
      segment.continuedIn = null;
      state.markers.push({ kind: 'withdrawn', index, sessionId, childId: record.data.childId, at: record.data.withdrawnAt });
      return;
    }
    case 'session.child_linked': {
      const { childId, link, linkedAt } = record.data;
      if (segment.children.some((child) => child.childId === childId)) return skip(state, record, `child ${childId} already linked`);
      segment.children.push({ childId, link, linkedAt });
      state.markers.push({ kind: 'child', index, sessionId, childId, link, at: linkedAt });
      return;
    }
    case 'session.ended': {
      if (segment.ended !== null) return skip(state, record, 'segment already ended');
      const { reason, endedAt } = record.data;
      segment.ended = reason === undefined ? { endedAt } : { reason, endedAt };
      state.markers.push(reason === undefined ? { kind: 'ended', index, sessionId, at: endedAt } : { kind: 'ended', index, sessionId, reason, at: endedAt });
      return;
    }
    case 'session.reopened': {
      if (segment.ended === null) return skip(state, record, 'segment not ended');
      segment.ended = null;
      state.markers.push({ kind: 'reopened', index, sessionId, at: record.data.reopenedAt });
      return;
    }
  }
};
