import * as E from 'fp-ts/lib/Either.js';
import { ledgerError } from '@session-ledger/core';
import { decodeSessionEventE } from '@session-ledger/events';
import { eventTimeOf, laterOf } from '@session-ledger/projections';
import type { Coverage, CoveredConversation } from '../coverage/coverage.js';

/** A conversation's last activity as the catalog computes it (sessionList.ts): the latest event time of every segment's readable events. */
const lastActivityOf = (conversation: CoveredConversation): string | null => {
  let last: string | null = null;
  for (const segment of conversation.loaded.segments) {
    for (const event of segment.events) {
      const record = decodeSessionEventE(event);
      if (E.isRight(record)) last = laterOf(last, eventTimeOf(record.right));
    }
  }
  return last;
};

/**
 * Prune's age rule, decided on the read a deletion's tombstones are conditional on: every covered
 * conversation (the one asked for and each delegated child) was last active before `cutoff`. Judged
 * on the catalog alone, a conversation written to between the listing and the deletion's own read
 * was deleted with what was written (outside test, session 17: 16 of 40 conversations, with acknowledged
 * messages newer than the cutoff). Refused as session_active: it is active again.
 */
export const assertIdleBefore = (coverage: Coverage, cutoff: Date, listedUpTo?: bigint): void => {
  for (const conversation of coverage.conversations) {
    if (listedUpTo !== undefined) {
      // Stored after the listing, whatever time the event gives itself (a message may carry its own,
      // earlier timestamp: judged by times alone, one acknowledged after the listing was deleted with
      // its conversation; outside test, session 24). -1: a store that does not say where it is.
      const since = conversation.loaded.segments.flatMap((segment) => segment.events).find((event) => event.position > listedUpTo);
      if (since) {
        throw ledgerError(
          'session_active',
          `Session ${coverage.requestedId} is not deleted: ${conversation.link === null ? 'it' : `its delegated child ${conversation.rootId}`} was written to after it was listed (${since.streamName}@${since.revision})`,
          { sessionId: coverage.requestedId },
        );
      }
    }
    const last = lastActivityOf(conversation);
    if (last === null || !(Date.parse(last) < cutoff.getTime())) {
      throw ledgerError(
        'session_active',
        `Session ${coverage.requestedId} is not deleted: ${conversation.link === null ? 'it' : `its delegated child ${conversation.rootId}`} was active at ${last ?? 'no known time'}, not before ${cutoff.toISOString()}`,
        { sessionId: coverage.requestedId },
      );
    }
  }
};
