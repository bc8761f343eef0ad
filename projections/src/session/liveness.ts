import type { ConversationState, TurnState } from './state.js';

const timeOf = (now: Date | string): number => (typeof now === 'string' ? Date.parse(now) : now.getTime());

/** A lease is live until its expiry: `now >= leaseExpiresAt` means expired. `now` is always given. */
export const isLeaseLive = (leaseExpiresAt: string, now: Date | string): boolean => timeOf(now) < Date.parse(leaseExpiresAt);

export const isTurnLive = (turn: Pick<TurnState, 'leaseExpiresAt' | 'ended'>, now: Date | string): boolean =>
  turn.ended === null && isLeaseLive(turn.leaseExpiresAt, now);

/** The turn that owns the conversation at `now`, if any. */
export const liveTurnOf = (state: Pick<ConversationState, 'turns'>, now: Date | string): TurnState | null => {
  for (let index = state.turns.length - 1; index >= 0; index -= 1) {
    const turn = state.turns[index]!;
    if (isTurnLive(turn, now)) return turn;
  }
  return null;
};
