import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createLedger, createMemoryStore, type EventStore } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { openEsdbTestStore } from '../esdb-server/index.js';

/**
 * Every library test runs on the reference in-memory store, on the embedded SQLite file, and on
 * EventStoreDB through the real client (a fresh gRPC test double per store).
 */
export const STORES: Array<[string, () => EventStore]> = [
  ['memory', () => createMemoryStore()],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'sessions-'));
      const store = openSqliteStore(join(dir, 'ledger.db'));
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

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A writer context on a store, with a clock the test moves. */
export const writerOn = (store: EventStore, start = '2026-03-01T10:00:00.000Z') => {
  let now = new Date(start);
  return {
    store,
    context: { ledger: createLedger(store), now: () => now },
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
};
