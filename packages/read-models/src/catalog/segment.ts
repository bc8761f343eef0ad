import type { SessionRecord } from '@session-ledger/events';
import { earlierOf, eventTimeOf, laterOf } from '@session-ledger/projections';
import { NO_TURNS, withTurnEvent, type TurnEffect } from './turns.js';

/** What one segment's own events say, as `catalog_segments` keeps it. */
export interface Segment {
  id: string;
  /** Its `session.started` is stored (a segment without one is not part of any conversation yet). */
  started: boolean;
  parentId: string | null;
  link: string | null;
  continuedIn: string | null;
  title: string | null;
  source: string | null;
  model: string | null;
  messages: number;
  firstActivity: string | null;
  lastActivity: string | null;
  ended: boolean;
  turn: TurnEffect;
  rootId: string | null;
}

export const emptySegment = (id: string): Segment => ({
  id,
  started: false,
  parentId: null,
  link: null,
  continuedIn: null,
  title: null,
  source: null,
  model: null,
  messages: 0,
  firstActivity: null,
  lastActivity: null,
  ended: false,
  turn: NO_TURNS,
  rootId: null,
});


/**
 * Folds one session event into its segment's row: the same counts as the session list's fold
 * (projections' sessionList.ts) and the same lineage facts as its lineage accumulator.
 */
export const applyRecord = (segment: Segment, record: SessionRecord): void => {
  switch (record.type) {
    case 'session.started':
      if (!segment.started) {
        segment.started = true;
        segment.parentId = record.data.parentId;
        segment.link = record.data.link;
        segment.source = record.data.source ?? null;
        segment.model = record.data.model ?? null;
      }
      if (record.data.title !== undefined) segment.title = record.data.title;
      if (record.data.openTurn) segment.turn = withTurnEvent(segment.turn, 'turn.started', { ...record.data.openTurn });
      break;
    case 'session.continued':
      segment.continuedIn = record.data.childId; // the latest continuation is in force
      break;
    case 'session.continuation_withdrawn':
      if (segment.continuedIn === record.data.childId) segment.continuedIn = null;
      break;
    case 'message.appended':
      segment.messages += 1;
      break;
    case 'history.rewound':
      segment.messages -= record.data.messageIds.length;
      break;
    case 'turn.started':
    case 'turn.lease_renewed':
    case 'turn.ended':
      segment.turn = withTurnEvent(segment.turn, record.type, record.data as unknown as Record<string, unknown>);
      break;
    case 'session.ended':
      segment.ended = true;
      break;
    case 'session.reopened':
      segment.ended = false;
      break;
    default:
  }
  const time = eventTimeOf(record);
  segment.lastActivity = laterOf(segment.lastActivity, time);
  segment.firstActivity = earlierOf(segment.firstActivity, time);
};
