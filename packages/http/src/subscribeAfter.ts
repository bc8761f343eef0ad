import type { EventFilter, EventStore, Subscription, SubscriptionItem } from '@session-ledger/core';
import { LAST_POSITION } from './contract/common.js';

/**
 * After the last position a store can hold nothing can follow: caught up at once, then open and
 * silent until the client leaves. Answered here because a store asked for the events after it
 * reads from `position + 1`, which no 64-bit column can bind (SQLite: "bigint is too big").
 */
const nothingAfter = (position: bigint): Subscription => {
  const closed = new AbortController();
  async function* run(): AsyncGenerator<SubscriptionItem> {
    yield { kind: 'caught_up', position };
    if (!closed.signal.aborted) await new Promise((resolve) => closed.signal.addEventListener('abort', resolve, { once: true }));
  }
  const iterator = run();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      closed.abort();
      await iterator.return(undefined);
    },
  };
};

/** `$all` after a resume position (exclusive), history then live; every position the schema accepts works. */
export const subscribeAfter = (store: EventStore, from: bigint | 'start', filter: EventFilter): Subscription =>
  from === LAST_POSITION ? nothingAfter(from) : store.subscribeToAll({ fromPosition: from, filter });
