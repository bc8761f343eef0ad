import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { describeEventStoreConformance, ERASED } from './eventStoreConformance.js';

describeEventStoreConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-conformance-'));
  const store = openSqliteStore(join(dir, 'ledger.sqlite'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}, ERASED);
