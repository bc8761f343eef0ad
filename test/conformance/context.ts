import type { EventStore } from '@session-ledger/core';

/** What every section of the suite gets: the store of the running test. */
export interface ConformanceContext {
  store(): EventStore;
}
