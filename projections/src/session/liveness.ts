import type { ConversationState, TurnState } from './state.js';

const timeOf = (now: Date | string): number => (typeof now === 'string' ? Date.parse(now) : now.getTime());

/** A lease is live until its expiry: `now >= leaseExpiresAt` means expired. `now` is always given. */
export const isLeaseLive = (leaseExpiresAt: string, now: Date | string): boolean => timeOf(now) < Date.parse(leaseExpiresAt);

/** The one liveness rule: a turn holds its session while it has not ended and its lease has not expired. */
export const turnHolds = (ended: boolean, leaseExpiresAt: string, now: Date | string): boolean => !ended && isLeaseLive(leaseExpiresAt, now);

export const isTurnLive = (turn: Pick<TurnState, 'leaseExpiresAt' | 'ended'>, now: Date | string): boolean =>
  turnHolds(turn.ended !== null, turn.leaseExpiresAt, now);

/** The turn that owns the conversation at `now`, if any. */
export const liveTurnOf = (state: Pick<ConversationState, 'turns'>, now: Date | string): TurnState | null => {
  for (let index = state.turns.length - 1; index >= 0; index -= 1) {
    const turn = state.turns[index]!;
    if (isTurnLive(turn, now)) return turn;
  }
  return null;
};
