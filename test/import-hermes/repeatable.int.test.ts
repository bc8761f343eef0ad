import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, isLedgerError, readWholeStream, storeUnavailable, streamNames, type EventStore } from '@session-ledger/core';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import type { HermesFixture } from './fixtures/hermesDb.js';
import { buildCurrentEra, tempDir } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

/** Every stream's event ids: what two imports must agree on. */
const contents = async (store: EventStore) => {
  const out: Record<string, string[]> = {};
  // Session streams; the receipt of each file imported (a ledger- stream per path, ledger/receipt.ts) apart.
  for (const name of (await streamNames(store)).sort()) if (!name.startsWith('ledger-')) out[name] = (await readWholeStream(store, name)).map((e) => e.id);
  return out;
};

/** A store whose appends start failing after `okAppends` of them, as if the process died mid-import. */
const failingAfter = (store: EventStore, okAppends: number): EventStore => {
  let calls = 0;
  return {
    ...store,
    appendToStream: async (...args) => {
      calls += 1;
      if (calls > okAppends) throw storeUnavailable('disk went away', 'EIO');
      return store.appendToStream(...args);
    },
  };
};

const snapshotCopy = (h: HermesFixture, name: string): string => {
  h.db.pragma('wal_checkpoint(TRUNCATE)');
  const path = join(tempDir(), name);
  copyFileSync(h.path, path);
  return path;
};

describe('repeatable imports', () => {
  it('an interrupted import says how far it got, and the next run resumes to the same result as one clean run', async () => {
    const h = buildCurrentEra(join(tempDir(), 'state.db'));
    open.push(h);
    const store = createMemoryStore();
    const error = await importHermes(failingAfter(store, 3), { path: h.path, batchSize: 4 }).catch((e: unknown) => e);
    expect(isLedgerError(error, 'store_unavailable')).toBe(true);
    expect((error as Error).message).toMatch(/import stopped at session .+ after \d+ of 7 sessions \(\d+ events written\); run it again to resume/);
    const resumed = await importHermes(store, { path: h.path, batchSize: 4 });
    expect(resumed.skipped).toEqual([]);
    expect(resumed.updated + resumed.unchanged.sessions).toBeGreaterThan(0);
    const clean = createMemoryStore();
    await importHermes(clean, { path: h.path });
    expect(await contents(store)).toEqual(await contents(clean));
  });

  it('a newer copy adds only what is new: rows, a compaction, a rewind, the end, new sessions', async () => {
    const h = buildCurrentEra(join(tempDir(), 'state.db'));
    open.push(h);
    const older = snapshotCopy(h, 'older.db');
    const store = createMemoryStore();
    const first = await importHermes(store, { path: older });
    h.turns('20260424_145134_bba836', 2, 'later');
    h.compactInPlace('20260424_145134_bba836', '[CONTEXT COMPACTION] later summary', 1);
    const ids = h.turns('rewound', 1, 'again');
    h.rewind('rewound', ids[2]!);
    h.end('rewound', 'user_exit');
    h.session({ id: 'brand-new' });
    h.turns('brand-new', 1);
    const newer = snapshotCopy(h, 'newer.db');
    const second = await importHermes(store, { path: newer });
    expect(second).toMatchObject({ sessions: 1, messages: 8 + 4 + 4, skipped: [] });
    expect(second.compacted).toBeGreaterThan(0);
    expect(second.rewound).toBe(2);
    expect(second.unchanged.events).toBe(first.events);
    const fresh = createMemoryStore();
    await importHermes(fresh, { path: newer });
    expect(await contents(store)).toEqual(await contents(fresh));
    expect((await verifyHermes(store, newer)).differences).toEqual([]);
  });

  it('leaves a session alone, and says why, when an already imported row changed in the source', async () => {
    const h = buildCurrentEra(join(tempDir(), 'state.db'));
    open.push(h);
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    const before = await contents(store);
    h.db.prepare("UPDATE messages SET content = 'rewritten behind our back' WHERE id = (SELECT min(id) FROM messages WHERE session_id = 'rewound')").run();
    const report = await importHermes(store, { path: h.path });
    expect(report.skipped).toEqual([expect.objectContaining({ session: 'rewound', reason: expect.stringMatching(/source differs/) })]);
    expect(await contents(store)).toEqual(before);
  });
});
