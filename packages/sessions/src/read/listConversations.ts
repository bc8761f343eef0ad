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
 * One row per logical conversation, from one pass over the session events of $all; most recent first,
 * with the $all position the pass read up to (-1 for an empty store): an event of a conversation at a
 * later position was written after the listing (prune's guard, retention's delete/idleBefore.ts).
 * Only live events count: on EventStoreDB `$all` keeps a deleted session's events until a scavenge.
 */
export const listConversationsAt = async (store: EventStore, options: ListOptions = {}): Promise<{ rows: SessionListRow[]; position: bigint }> => {
  const accumulator = sessionListAccumulator();
  let position = -1n;
  for await (const page of readLivePages(store)) {
    for (const event of page) {
      if (event.position > position) position = event.position;
      if (!event.streamName.startsWith(SESSION_PREFIX)) continue;
      const record = decodeSessionEventE(event);
      if (E.isRight(record)) accumulator.add(record.right);
      else options.onUnreadable?.(record.left);
    }
  }
  return { rows: accumulator.finish(options.now ?? new Date()), position };
};

/** One row per logical conversation (listConversationsAt without the position). */
export const listConversations = async (store: EventStore, options: ListOptions = {}): Promise<SessionListRow[]> => (await listConversationsAt(store, options)).rows;
