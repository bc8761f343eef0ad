import { createMemoryStore } from '@session-ledger/core';
import { describeEventStoreConformance, ERASED } from './eventStoreConformance.js';

describeEventStoreConformance('memory', async () => {
  const store = createMemoryStore();
  return { store, cleanup: () => store.close() };
}, ERASED);

// The memory store with EventStoreDB's `$all` semantics (as the gRPC test double runs it): deleted events stay until a scavenge.
describeEventStoreConformance('memory (deleted events in $all until a scavenge)', async () => {
  const store = createMemoryStore({ deletedEventsInAll: 'until-scavenge' });
  return { store, cleanup: () => store.close(), scavenge: () => store.scavenge() };
}, { deletedEventsInAll: 'until-scavenge', scavenge: true });
