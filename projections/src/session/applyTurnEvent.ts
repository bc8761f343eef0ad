import type { SessionRecordOf } from '@session-ledger/events';
import { skip } from './skip.js';
import type { ConversationState } from './state.js';

type TurnRecord = SessionRecordOf<'turn.started' | 'turn.lease_renewed' | 'turn.ended'>;

/**
 * Turns are keyed by id across the conversation: a turn may begin in a segment and end in its
 * compression child. A segment's decider knows its own turns only, so an id that ended in an
 * earlier segment may begin again in a later one: that is a second turn, and later events of the
 * id are its own (outside test, session 26: it was folded into the first, ended, and the live turn
 * was not shown).
 */
export const applyTurnEvent = (state: ConversationState, record: TurnRecord): void => {
  const known = state.turnIndex.get(record.data.turnId);
  if (record.type === 'turn.started') {
    const earlier = known === undefined ? undefined : state.turns[known];
    if (earlier && (earlier.ended === null || earlier.sessionId === record.sessionId)) return skip(state, record, 'turn already started');
    const { turnId, owner, leaseExpiresAt, startedAt } = record.data;
    state.turnIndex.set(turnId, state.turns.length);
    state.turns.push({ turnId, sessionId: record.sessionId, owner, startedAt, leaseExpiresAt, ended: null });
    return;
  }
  const turn = known === undefined ? undefined : state.turns[known];
  if (!turn) return skip(state, record, 'unknown turn');
  if (turn.ended !== null) return skip(state, record, 'turn already ended');
  if (record.type === 'turn.lease_renewed') turn.leaseExpiresAt = record.data.leaseExpiresAt;
  else turn.ended = { outcome: record.data.outcome, endedAt: record.data.endedAt };
};
