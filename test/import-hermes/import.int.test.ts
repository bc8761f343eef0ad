import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, readWholeStream, streamNames, verifyStreamChain, type EventStore } from '@session-ledger/core';
import { decodeSessionEvents, sessionStream } from '@session-ledger/events';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { importHermes } from '@session-ledger/import-hermes';
import { createMarkdownMirror, createMemoryLedger, readProviderStatus, startMemoryFanOut } from '@session-ledger/memory';
import type { HermesFixture } from './fixtures/hermesDb.js';
import { buildCurrentEra, buildV2Era, tempDir, writeMemories } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
const stores: EventStore[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) h.close();
  for (const s of stores.splice(0)) await s.close();
});

const fixture = (build: (path: string) => HermesFixture) => {
  const dir = tempDir();
  const h = build(join(dir, 'state.db'));
  open.push(h);
  return { h, dir, path: h.path };
};

const sqliteStore = (dir: string) => {
  const store = openSqliteStore(join(dir, 'ledger.sqlite'));
  stores.push(store);
  return store;
};

describe('importing a Hermes state.db', () => {
  it('writes every session as a valid, hash-chained stream with the same id', async () => {
    const { path, dir } = fixture(buildCurrentEra);
    const store = sqliteStore(dir);
    const report = await importHermes(store, { path });
    expect(report.skipped).toEqual([]);
    expect(report).toMatchObject({ sessions: 7, segments: 2, source: { schemaVersion: 30, sessions: 7 } });
    // Every stream but the receipt of the file (ledger/receipt.ts, tested in deletedInHermes.int).
    const names = (await streamNames(store)).filter((name) => !name.startsWith('ledger-import-hermes-')).sort();
    expect(names).toContain(sessionStream('20260424_143733_1abb38'));
    for (const name of names) {
      const events = await readWholeStream(store, name);
      expect(verifyStreamChain(events)).toBeNull();
      expect(() => decodeSessionEvents(events)).not.toThrow();
    }
  });

  it('adds nothing when the same file is imported twice', async () => {
    const { path, dir } = fixture(buildCurrentEra);
    const store = sqliteStore(dir);
    const first = await importHermes(store, { path });
    const second = await importHermes(store, { path });
    expect(first.events).toBeGreaterThan(0);
    expect(second).toMatchObject({ sessions: 0, messages: 0, events: 0, compacted: 0, skipped: [] });
    expect(second.unchanged).toMatchObject({ sessions: 7, events: first.events });
  });

  it('imports a version-2 file', async () => {
    const { path } = fixture(buildV2Era);
    const store = createMemoryStore();
    const report = await importHermes(store, { path });
    expect(report).toMatchObject({ sessions: 3, segments: 1, messages: 14, compacted: 0, skipped: [] });
  });

  it('imports memory entries once, as legacy entries', async () => {
    const { path, dir } = fixture(buildV2Era);
    const memories = writeMemories(join(dir, 'memories'), ['User prefers tabs', 'Project uses pnpm\nand vitest'], ['Name: Ada', 'Ünïcode ✓']);
    const store = createMemoryStore();
    const first = await importHermes(store, { path, memoriesDir: memories });
    const second = await importHermes(store, { path, memoriesDir: memories });
    expect(first.memoryEntries).toBe(4);
    expect(second.memoryEntries).toBe(0);
    expect(second.unchanged.memoryEntries).toBe(4);
    const events = await readWholeStream(store, 'memory-default');
    expect(events.map((e) => (e.data as { content: string }).content)).toEqual([
      'User prefers tabs',
      'Project uses pnpm\nand vitest',
      'Name: Ada',
      'Ünïcode ✓',
    ]);
    expect(events.every((e) => e.metadata.legacy === true)).toBe(true);
  });

  // Outside test, session 26: the way on from a parked mirror (import the files Hermes changed, then rebuild) added
  // the entries the profile already held a second time; Hermes reads a mirrored file with duplicates as drift.
  it('adds only the entries the profile does not hold: an entry the ledger already has, by its text, is present', async () => {
    const { path, dir } = fixture(buildV2Era);
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    await memory.add('memory', 'Uses the blue notebook');
    await memory.add('memory', 'ledger second');
    await memory.add('user', 'Hermes wrote this');
    const memories = writeMemories(join(dir, 'memories'), ['Uses the blue notebook', 'Hermes wrote this'], ['Name: Ada']);
    const report = await importHermes(store, { path, memoriesDir: memories });
    expect([report.memoryEntries, report.unchanged.memoryEntries]).toEqual([2, 1]);
    expect((await memory.list()).map((entry) => `${entry.target}:${entry.content}`)).toEqual([
      'memory:Uses the blue notebook',
      'memory:ledger second',
      'user:Hermes wrote this',
      'memory:Hermes wrote this',
      'user:Name: Ada',
    ]);
  });

  it('an entry imported before and taken out in the ledger since comes back only from a file written after that (outside test, session 34, helper-94 F8)', async () => {
    const { path, dir } = fixture(buildV2Era);
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    const memories = writeMemories(join(dir, 'memories'), ['Project deadline is Friday', 'Uses vim'], []);
    const file = join(memories, 'MEMORY.md');
    utimesSync(file, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    expect((await importHermes(store, { path, memoriesDir: memories })).memoryEntries).toBe(2);
    await memory.replace('memory', 'deadline', 'Project deadline moved to Monday');
    // The same old file again: an older copy, said so, and not counted "already present".
    const older = await importHermes(store, { path, memoriesDir: memories });
    expect([older.memoryEntries, older.unchanged.memoryEntries]).toEqual([0, 1]);
    expect(older.skipped).toContainEqual({ reason: expect.stringContaining('"Project deadline is Friday" was imported before and taken out in the ledger since') });
    // The user put it back in the file since (the "keep its entries" way out of a parked mirror): imported as a new entry.
    writeFileSync(file, 'Project deadline moved to Monday\n§\nUses vim\n§\nProject deadline is Friday');
    // A minute later (a file's mtime comes from a coarse clock, which may read a few ms behind the event's).
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    const again = await importHermes(store, { path, memoriesDir: memories });
    expect(again.memoryEntries).toBe(1);
    expect((await memory.list()).map((entry) => entry.content)).toEqual(['Project deadline moved to Monday', 'Uses vim', 'Project deadline is Friday']);
    // Before, it was skipped as "already present" and the rebuild that followed deleted it from the file.
    const repeated = await importHermes(store, { path, memoriesDir: memories });
    expect([repeated.memoryEntries, repeated.unchanged.memoryEntries, repeated.skipped]).toEqual([0, 3, []]);
  });

  it("reads memory files as Hermes does: a leading BOM dropped (a mirror over the directory adopts it), a file of invalid UTF-8 holds no entry and is reported", async () => {
    const { path, dir } = fixture(buildV2Era);
    const store = createMemoryStore();
    // Hermes (e89532d, _read_raw_checked) decodes with utf-8-sig, strictly: the BOM goes, invalid bytes make the file unreadable.
    const memories = writeMemories(join(dir, 'memories'), ['\ufeffBOM-led entry', 'second entry', 'BOM-led entry'], []);
    writeFileSync(join(memories, 'USER.md'), Buffer.concat([Buffer.from('user fact\n§\nbad '), Buffer.from([0xff, 0xfe]), Buffer.from(' bytes')]));
    const report = await importHermes(store, { path, memoriesDir: memories });
    expect((await createMemoryLedger(store).list()).map((entry) => entry.content)).toEqual(['BOM-led entry', 'second entry']);
    expect(report.skipped).toEqual([{ reason: 'USER.md is not valid UTF-8: Hermes reads it as unreadable (no entries); none of it was imported' }]);
    // The directory as Notepad saves what the profile holds (a BOM, CRLF): the mirror adopts it.
    writeFileSync(join(memories, 'MEMORY.md'), '\ufeffBOM-led entry\r\n§\r\nsecond entry');
    writeFileSync(join(memories, 'USER.md'), '');
    const fanOut = startMemoryFanOut(store, [createMarkdownMirror({ dir: memories })], { onWarning: () => undefined });
    await fanOut.caughtUp;
    await fanOut.stop();
    expect((await readProviderStatus(store, 'markdown-mirror')).state).toBe('active');
  });

  // Outside test, session 34 (helper-94 F15): the import let in what every other write refuses.
  it('skips an entry holding a line with only § (Hermes reads it from a file ending in one), saying so, and imports the rest', async () => {
    const { path, dir } = fixture(buildV2Era);
    const store = createMemoryStore();
    const memories = writeMemories(join(dir, 'memories'), ['alpha'], []);
    writeFileSync(join(memories, 'MEMORY.md'), 'alpha\n§\nlist of symbols:\n§');
    const report = await importHermes(store, { path, memoriesDir: memories });
    expect((await createMemoryLedger(store).list()).map((entry) => entry.content)).toEqual(['alpha']);
    expect(report.skipped).toEqual([{ reason: expect.stringContaining('"list of symbols:\\n§" holds a line with only §') }]);
    // The ledger's own write refuses the same text alike.
    await expect(createMemoryLedger(store).add('memory', 'list of symbols:\n§')).rejects.toMatchObject({ type: 'invalid_input' });
  });

  // Outside test, session 34 (helper-94 F1): the import appended past the memory ledger and left it at 2341/2200.
  it('imports no entry of a target it would leave over its budget, saying so; the other target is imported', async () => {
    const { path, dir } = fixture(buildV2Era);
    const store = createMemoryStore();
    await createMemoryLedger(store).add('memory', 'x'.repeat(2000));
    const memories = writeMemories(join(dir, 'memories'), ['y'.repeat(150), 'z'.repeat(150)], ['Name: Ada']);
    const report = await importHermes(store, { path, memoriesDir: memories });
    const ledger = createMemoryLedger(store);
    expect((await ledger.list({ target: 'memory' })).map((entry) => entry.content.length)).toEqual([2000]);
    expect((await ledger.list({ target: 'user' })).map((entry) => entry.content)).toEqual(['Name: Ada']);
    expect(report.skipped).toEqual([{ reason: expect.stringContaining('the 2 new memory entries would leave it at 2306/2200 characters') }]);
    // With a budget that fits them (SESSION_LEDGER_MEMORY_BUDGET on the CLI), they come in.
    await importHermes(store, { path, memoriesDir: memories, memoryBudgets: { memory: 2400 } });
    expect(await ledger.list({ target: 'memory' })).toHaveLength(3);
  });
});
