import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createLedger, createMemoryStore, type EventStore, type Ledger } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { openEsdbTestStore } from '../esdb-server/index.js';

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * Every library scenario runs on the reference in-memory store, on the embedded SQLite file, and on
 * EventStoreDB through the real client (a fresh gRPC test double per store). Each store is closed,
 * and its files removed, after the test.
 */
const ALL_STORES: Array<[string, () => EventStore]> = [
  ['memory', () => createMemoryStore()],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
      const store = openSqliteStore(join(dir, 'ledger.sqlite'));
      cleanups.push(async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      });
      return store;
    },
  ],
  [
    'eventstoredb',
    () => {
      const store = openEsdbTestStore();
      cleanups.push(() => store.close());
      return store;
    },
  ],
];

/** SESSION_LEDGER_TEST_STORES=memory,sqlite narrows the stores (the mutation run uses it); unset, every store runs. */
const only = process.env.SESSION_LEDGER_TEST_STORES?.split(',');
export const STORES = only ? ALL_STORES.filter(([name]) => only.includes(name)) : ALL_STORES;

export const T0 = '2026-03-01T10:00:00.000Z';

/** A writer context on a store, with a clock the test moves. */
export const writerOn = (store: EventStore, start = T0) => {
  let now = new Date(start);
  const context: { ledger: Ledger; now: () => Date } = { ledger: createLedger(store), now: () => now };
  return {
    store,
    ledger: context.ledger,
    context,
    now: () => now,
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
};
