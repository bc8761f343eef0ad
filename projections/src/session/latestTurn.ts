import { turnHolds } from './liveness.js';

/** The latest turn of a segment: the one that holds it while its lease is live and it has not ended. */
export interface LatestTurn {
  turnId: string;
  owner: string;
  leaseExpiresAt: string;
  ended: boolean;
}

/**
 * The turn rule, once: a `turn.started` (or a compression child's carried open turn) makes a turn
 * the latest; a renewal moves the latest turn's lease; an end closes it. Events naming another
 * turn than the latest change nothing.
 */
export const turnAfter = (latest: LatestTurn | null, type: string, data: Record<string, unknown>): LatestTurn | null => {
  switch (type) {
    case 'turn.started':
      return { turnId: String(data.turnId), owner: String(data.owner), leaseExpiresAt: String(data.leaseExpiresAt), ended: false };
    case 'turn.lease_renewed':
      return latest && latest.turnId === data.turnId ? { ...latest, leaseExpiresAt: String(data.leaseExpiresAt) } : latest;
    case 'turn.ended':
      return latest && latest.turnId === data.turnId ? { ...latest, ended: true } : latest;
    default:
      return latest;
  }
};

/** Whether `turn` holds its segment at `now`: not ended and its lease not expired. */
export const holdsSegment = (turn: LatestTurn | null, now: Date): turn is LatestTurn =>
  turn !== null && turnHolds(turn.ended, turn.leaseExpiresAt, now);
