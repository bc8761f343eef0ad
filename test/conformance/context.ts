import type { DeletedEventsInAll, EventStore } from '@session-ledger/core';

/**
 * What a backend really does where backends differ, declared by its test harness. EventStoreDB
 * keeps a deleted stream's events in `$all` (reads and catch-up subscriptions) until a scavenge;
 * SQLite and the memory store erase them at once.
 */
export interface StoreCapabilities {
  deletedEventsInAll: DeletedEventsInAll;
  /** Whether the harness can run a scavenge and wait for it (`scavenge` in the setup). */
  scavenge: boolean;
}

/** What every section of the suite gets: the store of the running test, and what its backend does. */
export interface ConformanceContext {
  store(): EventStore;
  capabilities: StoreCapabilities;
  /** Runs a scavenge on the backend (only when `capabilities.scavenge`). */
  scavenge(): Promise<void>;
}
