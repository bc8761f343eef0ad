import type { ChildLink, SessionContinued, SessionStarted } from '@session-ledger/events';
import { turnAfter, type LatestTurn } from './latestTurn.js';

/**
 * What a write to one segment needs to know, folded from that segment's events alone: whether it
 * exists, is sealed (compressed into a child) or ended, its latest turn, and the ids already used
 * in it (so a retried write is recognised and a reused id refused).
 */
export interface SegmentWriteState {
  started: SessionStarted | null;
  continued: SessionContinued | null;
  ended: boolean;
  /** The reason the segment's `session.ended` gave (null: none given, or not ended): a retried end must give the same. */
  endReason: string | null;
  turn: LatestTurn | null;
  /** The outcome the latest turn ended with (null while it is open): a retried end of it must give the same. */
  turnOutcome: string | null;
  /** How many times the segment ended (each end after a reopen is an event of its own, with an id of its own). */
  ends: number;
  /** Every turn id begun in the segment (a turn id is never reused). */
  turnIds: Set<string>;
  /** Message id -> the event id it was appended with (derived from its content: see the sessions writer). */
  messages: Map<string, string>;
  /** Delegated and branched children linked from here. */
  children: Map<string, ChildLink>;
  /** Compaction summary ids. */
  summaryIds: Set<string>;
}

export const initialSegmentWriteState = (): SegmentWriteState => ({
  started: null,
  continued: null,
  ended: false,
  endReason: null,
  turn: null,
  turnOutcome: null,
  ends: 0,
  turnIds: new Set(),
  messages: new Map(),
  children: new Map(),
  summaryIds: new Set(),
});

type Data = Record<string, unknown>;

/**
 * Folds one stored event into the state, in place (the command handler owns the state object).
 * It reads the few fields it needs without validating whole events, so a segment holding an event
 * of a type this version does not know can still be written to, ended and deleted.
 */
export const evolveSegment = (state: SegmentWriteState, event: { id: string; type: string; data: unknown }): SegmentWriteState => {
  const data = (event.data ?? {}) as Data;
  switch (event.type) {
    case 'session.started': {
      const started = data as unknown as SessionStarted;
      state.started = started;
      if (started.openTurn) {
        state.turn = { ...started.openTurn, ended: false };
        state.turnIds.add(started.openTurn.turnId);
      }
      break;
    }
    case 'turn.started':
      state.turnIds.add(String(data.turnId));
      state.turn = turnAfter(state.turn, event.type, data);
      state.turnOutcome = null;
      break;
    case 'turn.lease_renewed':
      state.turn = turnAfter(state.turn, event.type, data);
      break;
    case 'turn.ended':
      if (state.turn && state.turn.turnId === data.turnId && !state.turn.ended) state.turnOutcome = data.outcome === undefined ? null : String(data.outcome);
      state.turn = turnAfter(state.turn, event.type, data);
      break;
    case 'message.appended':
      state.messages.set(String(data.messageId), event.id);
      break;
    case 'history.compacted':
      state.summaryIds.add(String(data.summaryId));
      break;
    case 'session.child_linked':
      state.children.set(String(data.childId), data.link as ChildLink);
      break;
    case 'session.continued':
      state.continued = data as unknown as SessionContinued;
      break;
    case 'session.continuation_withdrawn':
      // Withdrawn: the segment is no longer sealed (open again, as the source resumed it).
      if (state.continued?.childId === data.childId) state.continued = null;
      break;
    case 'session.ended':
      if (!state.ended) {
        state.endReason = typeof data.reason === 'string' ? data.reason : null;
        state.ends += 1;
      }
      state.ended = true;
      break;
    case 'session.reopened':
      state.ended = false;
      state.endReason = null;
      break;
    default:
  }
  return state;
};
