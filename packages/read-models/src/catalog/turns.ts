import { turnAfter, type LatestTurn } from '@session-ledger/projections';

/**
 * A segment's turn events, reduced so that segments compose along a chain exactly as the turn rule
 * (projections' `turnAfter`) folds them one by one: `start` is the latest turn begun in the segment
 * (with what followed it), `pre` what the events before the segment's first start did to a turn
 * begun in an earlier segment (its last renewed expiry, whether it ended).
 */
export interface TurnEffect {
  start: LatestTurn | null;
  pre: Record<string, { leaseExpiresAt?: string; ended: boolean }>;
}

export const NO_TURNS: TurnEffect = { start: null, pre: {} };

export const withTurnEvent = (effect: TurnEffect, type: string, data: Record<string, unknown>): TurnEffect => {
  if (effect.start !== null || type === 'turn.started') return { start: turnAfter(effect.start, type, data), pre: effect.pre };
  const turnId = String(data.turnId);
  const before = effect.pre[turnId] ?? { ended: false };
  const after =
    type === 'turn.lease_renewed' ? { ...before, leaseExpiresAt: String(data.leaseExpiresAt) } : type === 'turn.ended' ? { ...before, ended: true } : before;
  return { start: null, pre: { ...effect.pre, [turnId]: after } };
};

/** The latest turn after a chain's segments, root to tip. */
export const composeTurns = (effects: readonly TurnEffect[]): LatestTurn | null => {
  let turn: LatestTurn | null = null;
  for (const effect of effects) {
    const seen: { leaseExpiresAt?: string; ended: boolean } | undefined = turn ? effect.pre[turn.turnId] : undefined;
    if (turn !== null && seen !== undefined) {
      const latest: LatestTurn = turn;
      turn = { ...latest, leaseExpiresAt: seen.leaseExpiresAt ?? latest.leaseExpiresAt, ended: latest.ended || seen.ended };
    }
    if (effect.start !== null) turn = effect.start;
  }
  return turn;
};
