import type { EventStore, Subscription } from '@session-ledger/core';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer, type EsdbTestServerOptions } from './server.js';

const deferredSubscription = (open: () => Promise<Subscription>): Subscription => {
  let inner: Subscription | undefined;
  let closed = false;
  async function* run() {
    inner = await open();
    if (closed) return void (await inner.close());
    yield* inner;
  }
  const iterator = run();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      closed = true;
      await inner?.close();
      await iterator.return(undefined);
    },
  };
};

/** The adapter on a fresh test double, and the double's scavenge (an admin operation on a real server). */
export interface EsdbTestStore extends EventStore {
  scavenge(): Promise<number>;
}

/**
 * A fresh test double and the adapter connected to it, returned at once (as the memory and SQLite
 * factories return theirs) and usable at once: calls wait for the server to listen. Closing the
 * store stops its server.
 */
export const openEsdbTestStore = (options: EsdbTestServerOptions = {}): EsdbTestStore => {
  const ready = startEsdbTestServer(options).then((server) => ({ server, store: openEventStoreDbStore(server.url) }));
  const store = async () => (await ready).store;
  return {
    name: 'eventstoredb (test double)',
    appendToStream: async (...args) => (await store()).appendToStream(...args),
    readStream: async (...args) => (await store()).readStream(...args),
    readAll: async (...args) => (await store()).readAll(...args),
    deleteStream: async (...args) => (await store()).deleteStream(...args),
    tombstoneStream: async (...args) => (await store()).tombstoneStream(...args),
    subscribeToStream: (...args) => deferredSubscription(async () => (await store()).subscribeToStream(...args)),
    subscribeToAll: (...args) => deferredSubscription(async () => (await store()).subscribeToAll(...args)),
    readCheckpoint: async (...args) => (await store()).readCheckpoint(...args),
    storeCheckpoint: async (...args) => (await store()).storeCheckpoint(...args),
    scavenge: async () => (await ready).server.scavenge(),
    close: async () => {
      const { server, store: inner } = await ready;
      await inner.close();
      await server.close();
    },
  };
};
