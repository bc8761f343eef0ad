import { createMemoryStore } from '@session-ledger/core';
import { describeEventStoreConformance } from './eventStoreConformance.js';

describeEventStoreConformance('memory', async () => {
  const store = createMemoryStore();
  return { store, cleanup: () => store.close() };
});
