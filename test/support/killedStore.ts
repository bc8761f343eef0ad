import { storeUnavailable, type EventStore } from '@session-ledger/core';

/** The store with some methods replaced (a failing read, a write slipped in before a tombstone). */
export const wrapStore = (store: EventStore, overrides: Partial<Pick<EventStore, 'readStream' | 'tombstoneStream' | 'readAll' | 'appendToStream'>>): EventStore => {
  const wrapped = Object.create(null) as EventStore;
  for (const key of Object.keys(store) as Array<keyof EventStore>) {
    const value = store[key];
    (wrapped as unknown as Record<string, unknown>)[key] = typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(store) : value;
  }
  // A test that steps through tombstones one by one models a store that deletes one stream per call
  // (EventStoreDB): the all-or-none tombstoneStreams (SQLite) would go around its override.
  if (overrides.tombstoneStream) delete (wrapped as Partial<EventStore>).tombstoneStreams;
  return Object.assign(wrapped, overrides);
};

/** The store as a process killed after `tombstones` tombstones sees it: nothing it writes afterwards lands. */
export const killedAfter = (store: EventStore, tombstones: number) => {
  let done = 0;
  let dead = false;
  const killed = () => storeUnavailable('the process was killed');
  return wrapStore(store, {
    tombstoneStream: async (stream, options) => {
      if (dead || done >= tombstones) {
        dead = true;
        throw killed();
      }
      done += 1;
      return store.tombstoneStream(stream, options);
    },
    appendToStream: async (stream, events, options) => {
      if (dead) throw killed();
      return store.appendToStream(stream, events, options);
    },
  });
};
