import * as E from 'fp-ts/lib/Either.js';
import { readLivePages, type EventStore, type LedgerError } from '@session-ledger/core';
import { decodeSessionEventE, SESSION_PREFIX } from '@session-ledger/events';
import { sessionListAccumulator, type SessionListRow } from '@session-ledger/projections';

export interface ListOptions {
  /** When liveness is judged; default: the system clock. */
  now?: Date;
  /** Called for each stored session event that cannot be read (it is left out of the list). */
  onUnreadable?: (error: LedgerError) => void;
}

/**
 * One row per logical conversation, from one pass over the session events of $all; most recent first.
 * Only live events count: on EventStoreDB `$all` keeps a deleted session's events until a scavenge.
 */
export const listConversations = async (store: EventStore, options: ListOptions = {}): Promise<SessionListRow[]> => {
  const accumulator = sessionListAccumulator();
  for await (const page of readLivePages(store)) {
    for (const event of page) {
      if (!event.streamName.startsWith(SESSION_PREFIX)) continue;
      const record = decodeSessionEventE(event);
      if (E.isRight(record)) accumulator.add(record.right);
      else options.onUnreadable?.(record.left);
    }
  }
  return accumulator.finish(options.now ?? new Date());
};
