import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import { buildLarge, tempDir } from './fixtures/scenarios.js';

describe('a 50k-message session', () => {
  it('imports every row into one stream, in order, and verifies', async () => {
    const dir = tempDir();
    buildLarge(join(dir, 'state.db'), 50_000).close();
    const store = openSqliteStore(join(dir, 'ledger.sqlite'));
    try {
      const progress: number[] = [];
      const report = await importHermes(store, { path: join(dir, 'state.db'), onProgress: (done) => progress.push(done) });
      expect(report).toMatchObject({ sessions: 1, messages: 50_000, events: 50_001, skipped: [] });
      expect(progress.at(-1)).toBe(50_000);
      expect((await verifyHermes(store, join(dir, 'state.db'))).differences).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
