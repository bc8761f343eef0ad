import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@session-ledger/core';
import { importHermes, readSnapshot, verifyHermes } from '@session-ledger/import-hermes';
import { buildCurrentEra, tempDir } from './fixtures/scenarios.js';
import { startWriter } from './fixtures/writerProcess.js';

describe('importing while Hermes has the file open in WAL mode', () => {
  it('reads one consistent snapshot while another process keeps writing; the next run picks up the rest', async () => {
    const path = join(tempDir(), 'state.db');
    buildCurrentEra(path).close();
    const writer = await startWriter(path, '20260424_145134_bba836', 2);
    const store = createMemoryStore();
    let first;
    try {
      await new Promise((r) => setTimeout(r, 50));
      first = await importHermes(store, { path });
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      await writer.stop();
    }
    expect(first.skipped).toEqual([]);
    const live = readSnapshot(path).messages.get('20260424_145134_bba836')!.filter((m) => m.content?.startsWith('live row'));
    const second = await importHermes(store, { path });
    expect(second.skipped).toEqual([]);
    expect(first.messages + second.messages).toBeGreaterThanOrEqual(live.length);
    expect(second.messages).toBeGreaterThan(0);
    expect((await verifyHermes(store, path)).differences).toEqual([]);
  });

  it('--verify against the snapshot it imported finds no difference while Hermes keeps writing', async () => {
    const path = join(tempDir(), 'state.db');
    buildCurrentEra(path).close();
    const store = createMemoryStore();
    const snapshot = readSnapshot(path);
    await importHermes(store, { path, snapshot });
    const writer = await startWriter(path, '20260424_145134_bba836', 2);
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect((await verifyHermes(store, path, { snapshot })).differences).toEqual([]);
      // Read again, the file now holds rows the import never saw: that is a real difference.
      expect((await verifyHermes(store, path)).differences.map((d) => d.conversation)).toContain('20260424_143733_1abb38');
    } finally {
      await writer.stop();
    }
  });

  it('leaves the file’s bytes and modification time unchanged while a writer process holds it open', async () => {
    const path = join(tempDir(), 'state.db');
    const h = buildCurrentEra(path);
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    h.close();
    const writer = await startWriter(path, 'inplace', null);
    try {
      const before = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
      const report = await importHermes(createMemoryStore(), { path });
      expect(report.sessions).toBe(7);
      expect(readFileSync(path).equals(before.bytes)).toBe(true);
      expect(statSync(path).mtimeMs).toBe(before.mtime);
    } finally {
      await writer.stop();
    }
  });
});
