import { liveTurnOf } from '@session-ledger/projections';
import type { Coverage } from '../coverage/coverage.js';
import { cannotDeleteActive } from '../errors.js';

/**
 * The live-lease guard, decided from the coverage a deletion's tombstones are conditional on: a turn
 * that is live at `now` in any covered conversation (a segment, or a delegated child) refuses the
 * deletion. An expired lease (a crashed owner) does not. A turn that starts later moves a covered
 * revision, so the conditional tombstone fails instead.
 */
export const liveTurnIn = (coverage: Coverage, now: Date) => {
  for (const conversation of coverage.conversations) {
    const turn = liveTurnOf(conversation.loaded.state, now);
    if (turn) return { conversation, turn };
  }
  return null;
};

export const assertIdle = (coverage: Coverage, now: Date): void => {
  const live = liveTurnIn(coverage, now);
  if (live) throw cannotDeleteActive(coverage.requestedId, live.turn, live.conversation.link === null ? null : live.conversation.rootId);
};
