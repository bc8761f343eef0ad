import type { ChildLink, SessionRecord } from '@session-ledger/events';
import { eventTimeOf, laterOf } from './eventTime.js';
import { lineageAccumulator, lineageIndex } from './lineage.js';
import { isLeaseLive } from './liveness.js';

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

interface TurnMark {
  leaseExpiresAt?: string;
  ended: boolean;
}

interface SegmentStats {
  messages: number;
  lastActivity: string | null;
  turns: Map<string, TurnMark>;
  title?: string;
  ended: boolean;
}

const markTurn = (stats: SegmentStats, turnId: string, change: TurnMark) => {
  const mark = stats.turns.get(turnId) ?? { ended: false };
  if (change.leaseExpiresAt !== undefined) mark.leaseExpiresAt = change.leaseExpiresAt;
  mark.ended ||= change.ended;
  stats.turns.set(turnId, mark);
};

const countEvent = (stats: SegmentStats, record: SessionRecord) => {
  switch (record.type) {
    case 'session.started':
      if (record.data.title !== undefined) stats.title = record.data.title;
      if (record.data.openTurn) markTurn(stats, record.data.openTurn.turnId, { leaseExpiresAt: record.data.openTurn.leaseExpiresAt, ended: false });
      break;
    case 'message.appended':
      stats.messages += 1;
      break;
    case 'history.rewound':
      stats.messages -= record.data.messageIds.length;
      break;
    case 'turn.started':
    case 'turn.lease_renewed':
      markTurn(stats, record.data.turnId, { leaseExpiresAt: record.data.leaseExpiresAt, ended: false });
      break;
    case 'turn.ended':
      markTurn(stats, record.data.turnId, { ended: true });
      break;
    case 'session.ended':
      stats.ended = true;
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
      if (!segment) stats.set(record.sessionId, (segment = { messages: 0, lastActivity: null, turns: new Map(), ended: false }));
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
        const turns = new Map<string, TurnMark>();
        let messages = 0;
        let lastActivity: string | null = null;
        for (const id of segments) {
          const segment = stats.get(id)!;
          messages += segment.messages;
          if (segment.lastActivity !== null) lastActivity = laterOf(lastActivity, segment.lastActivity);
          for (const [turnId, mark] of segment.turns) {
            const merged = turns.get(turnId) ?? { ended: false };
            turns.set(turnId, { leaseExpiresAt: mark.leaseExpiresAt ?? merged.leaseExpiresAt, ended: merged.ended || mark.ended });
          }
        }
        const live = [...turns.values()].some((mark) => !mark.ended && mark.leaseExpiresAt !== undefined && isLeaseLive(mark.leaseExpiresAt, now));
        const tip = stats.get(root.tipId)!;
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
