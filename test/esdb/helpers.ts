import { randomUUID } from 'node:crypto';
import { newId, type EventData, type EventStore, type Subscription, type SubscriptionItem } from '@session-ledger/core';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer, type EsdbTestServer, type EsdbTestServerOptions } from '../esdb-server/index.js';

export const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

export const events = (count: number, type = 'tested'): EventData[] =>
  Array.from({ length: count }, (_, n) => ({ id: newId(), type, data: { n }, metadata: { test: true } }));

/** A test double and one adapter connected to it, closed together. */
export const connect = async (options: EsdbTestServerOptions = {}): Promise<{ server: EsdbTestServer; store: EventStore; close(): Promise<void> }> => {
  const server = await startEsdbTestServer(options);
  const store = openEventStoreDbStore(server.url);
  return {
    server,
    store,
    close: async () => {
      await store.close();
      await server.close();
    },
  };
};

/** Pulls items until `done` holds (the subscription stays open). */
export const pull = async (subscription: Subscription, done: (items: SubscriptionItem[]) => boolean): Promise<SubscriptionItem[]> => {
  const iterator = subscription[Symbol.asyncIterator]();
  const items: SubscriptionItem[] = [];
  while (!done(items)) {
    const next = await iterator.next();
    if (next.done) break;
    items.push(next.value);
  }
  return items;
};
