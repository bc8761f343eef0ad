import { createMemoryStore, traced } from '@session-ledger/core';
import { describeEventStoreConformance, ERASED } from './eventStoreConformance.js';

// The tracing decorator is invisible: the store it wraps keeps every guarantee (no SDK registered: no-op spans).
describeEventStoreConformance('traced(memory)', async () => {
  const store = traced(createMemoryStore());
  return { store, cleanup: () => store.close() };
}, ERASED);
