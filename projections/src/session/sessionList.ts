import type { ChildLink, SessionRecord } from '@session-ledger/events';
import { eventTimeOf, laterOf } from './eventTime.js';
import { lineageAccumulator, lineageIndex } from './lineage.js';
import { holdsSegment, turnAfter, type LatestTurn } from './latestTurn.js';

/** One logical conversation: a root and its compression chain. */
export interface SessionListRow {
  rootId: string;
  tipId: string;
  /** Segment ids, root to tip. */
  segments: string[];
  messages: number;
  lastActivity: string | null;
  /** A turn holds the conversation at `now`. */
  live: boolean;
  /** For a delegated or branched conversation: the segment it was started from, and how. */
  parentId: string | null;
  link: ChildLink | null;
  title?: string;
  /** The tip has ended. */
  ended: boolean;
}

interface SegmentStats {
  messages: number;
  lastActivity: string | null;
  /** The segment's turn events in order, folded along the chain with the turn rule (latestTurn.ts). */
  turnEvents: Array<{ type: string; data: Record<string, unknown> }>;
  title?: string;
  ended: boolean;
}

const countEvent = (stats: SegmentStats, record: SessionRecord) => {
  switch (record.type) {
    case 'session.started':
      if (record.data.title !== undefined) stats.title = record.data.title;
      if (record.data.openTurn) stats.turnEvents.push({ type: 'turn.started', data: { ...record.data.openTurn } });
      break;
    case 'message.appended':
      stats.messages += 1;
      break;
    case 'history.rewound':
      stats.messages -= record.data.messageIds.length;
      break;
    case 'turn.started':
    case 'turn.lease_renewed':
    case 'turn.ended':
      stats.turnEvents.push({ type: record.type, data: record.data });
      break;
    case 'session.ended':
      stats.ended = true;
      break;
    case 'session.reopened':
      stats.ended = false;
      break;
    default:
  }
  stats.lastActivity = laterOf(stats.lastActivity, eventTimeOf(record));
};

const timeOf = (row: SessionListRow) => (row.lastActivity === null ? Number.NEGATIVE_INFINITY : Date.parse(row.lastActivity));

const byRecentActivity = (a: SessionListRow, b: SessionListRow) => timeOf(b) - timeOf(a) || (a.rootId < b.rootId ? -1 : a.rootId > b.rootId ? 1 : 0);

/** Folds session events of many conversations (pages of $all) into one row per conversation. */
export const sessionListAccumulator = () => {
  const lineage = lineageAccumulator();
  const stats = new Map<string, SegmentStats>();
  return {
    add(record: SessionRecord): void {
      lineage.add(record);
      let segment = stats.get(record.sessionId);
      if (!segment) stats.set(record.sessionId, (segment = { messages: 0, lastActivity: null, turnEvents: [], ended: false }));
      countEvent(segment, record);
    },
    /** Rows, most recent activity first. Liveness is judged at `now`, which the caller gives. */
    finish(now: Date | string): SessionListRow[] {
      const view = lineage.finish();
      const index = lineageIndex(view);
      const rows: SessionListRow[] = [];
      for (const root of view.nodes) {
        if (root.rootId !== root.sessionId) continue;
        const segments = [root.sessionId];
        for (let node = root; node.sessionId !== node.tipId; ) {
          node = index.get(node.continuedIn!)!;
          segments.push(node.sessionId);
        }
        let messages = 0;
        let lastActivity: string | null = null;
        let turn: LatestTurn | null = null;
        for (const id of segments) {
          const segment = stats.get(id)!;
          for (const event of segment.turnEvents) turn = turnAfter(turn, event.type, event.data);
          messages += segment.messages;
          if (segment.lastActivity !== null) lastActivity = laterOf(lastActivity, segment.lastActivity);
        }
        const tip = stats.get(root.tipId)!;
        // The latest turn along the chain (a turn may begin in a segment and end in its compression child).
        const live = holdsSegment(turn, now instanceof Date ? now : new Date(now));
        const row: SessionListRow = {
          rootId: root.sessionId,
          tipId: root.tipId,
          segments,
          messages,
          lastActivity,
          live,
          parentId: root.link === 'compression' ? null : root.parentId,
          link: root.link === 'compression' ? null : root.link,
          ended: tip.ended,
        };
        const title = stats.get(root.sessionId)!.title;
        if (title !== undefined) row.title = title;
        rows.push(row);
      }
      return rows.sort(byRecentActivity);
    },
  };
};

export const foldSessionList = (records: Iterable<SessionRecord>, now: Date | string): SessionListRow[] => {
  const accumulator = sessionListAccumulator();
  for (const record of records) accumulator.add(record);
  return accumulator.finish(now);
};
