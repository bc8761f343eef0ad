import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isLedgerError, readStreamState, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { importHermes, leftOut, type ImportReport, type StoreOpener } from '@session-ledger/import-hermes';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { buildBulk } from './fixtures/bulk.js';
import { createHermesDb } from './fixtures/hermesDb.js';
import { buildCurrentEra, tempDir } from './fixtures/scenarios.js';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

/** Every append worker the import starts (the real Worker, counted). */
const workers = vi.hoisted(() => [] as Worker[]);
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:worker_threads')>();
  class Counted extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      workers.push(this);
    }
  }
  return { ...actual, Worker: Counted };
});

const stores: EventStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  workers.splice(0);
});

const ledgerAt = (path: string): EventStore => {
  const store = openSqliteStore(path);
  stores.push(store);
  return store;
};

/** The built store package: what the worker imports (it runs plain JavaScript). */
const STORE_MODULE = pathToFileURL(join(import.meta.dirname, '..', '..', 'packages', 'store-sqlite', 'dist', 'index.js')).href;
const sqliteOpener = (path: string): StoreOpener => ({ module: STORE_MODULE, name: 'openSqliteStore', args: [path] });

/**
 * A store module for the worker whose appends fail from the `failAt`-th on with `store_unavailable`
 * (written beside the test's files: the worker imports it by URL).
 */
const failingOpener = (dir: string, path: string, failAt: number): StoreOpener => {
  const CORE = pathToFileURL(join(import.meta.dirname, '..', '..', 'packages', 'core', 'dist', 'index.js')).href;
  const file = join(dir, 'failingStore.mjs');
  writeFileSync(
    file,
    `import { openSqliteStore } from ${JSON.stringify(STORE_MODULE)};
import { storeUnavailable } from ${JSON.stringify(CORE)};
export const open = (path) => {
  const store = openSqliteStore(path);
  let appends = 0;
  return { ...store, appendToStream: (stream, events, options) => {
    appends += 1;
    if (appends >= ${failAt}) throw storeUnavailable('the disk went away', 'EIO');
    return store.appendToStream(stream, events, options);
  } };
};
`,
  );
  return { module: pathToFileURL(file).href, name: 'open', args: [path] };
};

/**
 * Every stored byte of the ledger but the clock readings: the events (data, and metadata with the
 * chain hashes) and the log's leaves (their hashes cover the append's clock reading, so are left out).
 */
const storedRows = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return {
      events: db.prepare('SELECT position, stream, revision, id, type, data, metadata FROM events ORDER BY position').raw(true).all(),
      leaves: db.prepare('SELECT leaf_index, position, stream, revision, deletion FROM log_leaves ORDER BY leaf_index').raw(true).all(),
    };
  } finally {
    db.close();
  }
};

/** Imports `source` into two new ledgers, on one thread and split; the reports and what each stored. */
const bothWays = async (dir: string, source: string, batchSize?: number) => {
  const one = join(dir, 'one.sqlite');
  const split = join(dir, 'split.sqlite');
  const progress: Array<Array<[number, number]>> = [[], []];
  const options = (n: number) => ({ path: source, ...(batchSize ? { batchSize } : {}), onProgress: (done: number, total: number) => void progress[n]!.push([done, total]) });
  const reports: ImportReport[] = [await importHermes(ledgerAt(one), options(0)), await importHermes(ledgerAt(split), { ...options(1), appendThread: sqliteOpener(split) })];
  return { reports, progress, one: storedRows(one), split: storedRows(split) };
};

const HERMES_FIXTURES = join(import.meta.dirname, 'fixtures', 'hermes');

describe('the import split: this thread builds, a worker appends', () => {
  it('stores the same bytes and hashes and reports the same as one thread: every fixture Hermes wrote, a current-era file, a bulk file of chains', async () => {
    const dir = tempDir('hermes-split');
    const sources = readdirSync(HERMES_FIXTURES).map((version) => join(HERMES_FIXTURES, version, 'state.db'));
    buildCurrentEra(join(dir, 'current.db')).close();
    buildBulk(join(dir, 'bulk.db'), { conversations: 12, messages: 300, contentSize: 300 });
    sources.push(join(dir, 'current.db'), join(dir, 'bulk.db'));
    for (const [index, source] of sources.entries()) {
      // The default batch size too for the two larger files (their sessions span several batches).
      for (const batchSize of index >= sources.length - 2 ? [7, undefined] : [7]) {
        const at = join(dir, `${index}-${batchSize ?? 'default'}`);
        mkdirSync(at);
        // Batches of 7: many batches a session, the worker's appends straddling the batches it is sent.
        const { reports, progress, one, split } = await bothWays(at, source, batchSize);
        expect(one.events.length, source).toBeGreaterThan(0);
        expect(split, source).toEqual(one);
        expect(reports[1], source).toEqual(reports[0]);
        // The progress a terminal shows: the same steps.
        expect(progress[1], source).toEqual(progress[0]);
      }
    }
    expect(workers.length).toBe(sources.length + 2);
    for (const worker of workers) expect(worker.threadId).toBe(-1);
  });

  it('a run over a ledger an earlier run filled part way (a newer copy of the file, a repeat, a changed source) writes and reports as one thread', async () => {
    const dir = tempDir('hermes-split');
    const older = join(dir, 'older.db');
    const newer = join(dir, 'newer.db');
    buildBulk(older, { conversations: 6, messages: 60, contentSize: 40 });
    buildBulk(newer, { conversations: 9, messages: 60, contentSize: 40 });
    const changed = join(dir, 'changed.db');
    buildBulk(changed, { conversations: 9, messages: 60, contentSize: 41 });
    const ledgers = { one: join(dir, 'one.sqlite'), split: join(dir, 'split.sqlite') };
    const reports: ImportReport[] = [];
    for (const source of [older, newer, newer, changed]) {
      const one = await importHermes(ledgerAt(ledgers.one), { path: source, batchSize: 13 });
      const split = await importHermes(ledgerAt(ledgers.split), { path: source, batchSize: 13, appendThread: sqliteOpener(ledgers.split) });
      expect(split, source).toEqual(one);
      reports.push(split);
    }
    // Each case happened: a newer copy updated sessions, a repeat wrote nothing, a changed source was refused.
    expect(reports.map((r) => [r.updated > 0 || r.sessions > 0, r.events, r.skipped.some((s) => s.reason.includes('differs from what was imported before'))])).toEqual([
      [true, expect.any(Number), false],
      [true, expect.any(Number), false],
      [false, 0, false],
      [false, 0, true],
    ]);
    expect(storedRows(ledgers.split)).toEqual(storedRows(ledgers.one));
  });

  it('a session deleted in the ledger is skipped; once Hermes went on with it, the skip is data left out, as one thread reports (E-6)', async () => {
    const dir = tempDir('hermes-split');
    const source = join(dir, 'current.db');
    const h = buildCurrentEra(source);
    const ledgers = { one: join(dir, 'one.sqlite'), split: join(dir, 'split.sqlite') };
    const both = async () => [
      await importHermes(ledgerAt(ledgers.one), { path: source }),
      await importHermes(ledgerAt(ledgers.split), { path: source, appendThread: sqliteOpener(ledgers.split) }),
    ];
    try {
      await both();
      for (const path of Object.values(ledgers)) await ledgerAt(path).tombstoneStream(sessionStream('inplace'));
      const [oneAgain, splitAgain] = await both();
      expect(splitAgain).toEqual(oneAgain);
      expect(splitAgain!.skipped.map((skip) => skip.reason)).toContain('the session was deleted in the ledger');
      expect(leftOut(splitAgain!)).toEqual([]);
      h.message('inplace', { role: 'user', content: 'written in Hermes after the ledger deleted it' });
      const [oneLater, splitLater] = await both();
      expect(splitLater).toEqual(oneLater);
      expect(leftOut(splitLater!)).toEqual([expect.objectContaining({ session: 'inplace', reason: expect.stringMatching(/deleted in the ledger at \d+ event\(s\), and the source has 1 more since/) })]);
    } finally {
      h.close();
    }
  });

  it('two imports racing on one ledger: what the later one finds written by the other counts as present, not as written by it, on both paths', async () => {
    const dir = tempDir('hermes-split');
    const source = join(dir, 'current.db');
    buildCurrentEra(source).close();
    for (const split of [false, true]) {
      const path = join(dir, `${split}.sqlite`);
      // The later import reads its first session's stream (absent), then waits while the other imports everything.
      const read = gate();
      const resume = gate();
      let first = true;
      const base = ledgerAt(path);
      const later: EventStore = Object.assign(Object.create(base) as EventStore, {
        readStream: async (...args: Parameters<EventStore['readStream']>) => {
          const hold = first && args[0].startsWith('session-');
          first &&= !hold;
          const result = await base.readStream(...args).then((events) => ({ events }), (error: unknown) => ({ error }));
          if (hold) read.open(), await resume.opened;
          if ('error' in result) throw result.error;
          return result.events;
        },
      });
      const racing = importHermes(later, { path: source, ...(split ? { appendThread: sqliteOpener(path) } : {}) });
      await read.opened;
      const earlier = await importHermes(ledgerAt(path), { path: source });
      resume.open();
      const report = await racing;
      const stored = (storedRows(path).events as unknown[][]).filter((row) => String(row[1]).startsWith('session-')).length;
      expect(earlier.events, `split: ${split}`).toBe(stored);
      // Before: the later import counted the events it found written as its own (the counts overlapped).
      expect([report.events, report.sessions, report.messages], `split: ${split}`).toEqual([0, 0, 0]);
      expect(report.unchanged.events, `split: ${split}`).toBe(stored);
    }
  });

  it('refuses a session holding a lone surrogate whole, even with batches of one, and imports the others', async () => {
    const dir = tempDir('hermes-split');
    const h = createHermesDb(join(dir, 'state.db'), 'current');
    h.session({ id: 'good', title: 'fine' });
    h.message('good', { role: 'user', content: 'hello' });
    h.session({ id: 'bad', title: 'poisoned' });
    for (let i = 0; i < 20; i += 1) h.message('bad', { role: 'user', content: `fine ${i}` });
    const row = h.message('bad', { role: 'assistant', content: null, toolCalls: [{ id: 'c1', function: { name: 'grep', arguments: '{"q":"\udcff"}' } }] });
    h.session({ id: 'after', title: 'fine too' });
    h.message('after', { role: 'user', content: 'still here' });
    h.close();
    const ledger = join(dir, 'ledger.sqlite');
    const store = ledgerAt(ledger);

    const progress: Array<Array<[number, number]>> = [[], []];
    const report = await importHermes(store, { path: h.path, batchSize: 1, appendThread: sqliteOpener(ledger), onProgress: (d, t) => void progress[0]!.push([d, t]) });
    const one = await importHermes(ledgerAt(join(dir, 'one.sqlite')), { path: h.path, batchSize: 1, onProgress: (d, t) => void progress[1]!.push([d, t]) });

    // Reported, and its progress told, as on one thread.
    expect(report).toEqual(one);
    expect(progress[0]).toEqual(progress[1]);
    expect(workers).toHaveLength(1);
    expect(report.skipped.find((item) => item.session === 'bad')?.reason).toContain(`Hermes session bad, message row ${row}`);
    expect((await readStreamState(store, sessionStream('bad'))).state).toBe('absent');
    expect((await readStreamState(store, sessionStream('good'))).state).toBe('live');
    expect((await readStreamState(store, sessionStream('after'))).state).toBe('live');
  });

  it('a store failure in the worker part way is the same typed error, saying how far it got, and the worker ends', async () => {
    const dir = tempDir('hermes-split');
    const source = join(dir, 'state.db');
    buildBulk(source, { conversations: 6, messages: 400, contentSize: 100 });
    const ledger = join(dir, 'ledger.sqlite');
    const store = ledgerAt(ledger);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const error: unknown = await importHermes(store, { path: source, batchSize: 100, appendThread: failingOpener(dir, ledger, 3) }).catch((e: unknown) => e);

      expect(isLedgerError(error, 'store_unavailable')).toBe(true);
      expect((error as Error).message).toMatch(/the disk went away; import stopped at session bulk-0 after 0 of \d+ sessions \(200 events written\); run it again to resume/);
      expect(workers).toHaveLength(1);
      expect(workers[0]!.threadId).toBe(-1);
      // What it wrote stays, and the next run (here on one thread) finishes it.
      const resumed = await importHermes(store, { path: source, batchSize: 100 });
      expect(resumed.unchanged.events).toBe(200);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('a worker that dies mid-import (its thread exits) fails the import with an error saying so, not a hang', async () => {
    const dir = tempDir('hermes-split');
    const source = join(dir, 'state.db');
    buildBulk(source, { conversations: 3, messages: 100, contentSize: 10 });
    const ledger = join(dir, 'ledger.sqlite');
    const file = join(dir, 'dyingStore.mjs');
    writeFileSync(
      file,
      `import { openSqliteStore } from ${JSON.stringify(STORE_MODULE)};
export const open = (path) => ({ ...openSqliteStore(path), appendToStream: () => process.exit(3) });
`,
    );
    const error: unknown = await importHermes(ledgerAt(ledger), { path: source, batchSize: 10, appendThread: { module: pathToFileURL(file).href, name: 'open', args: [ledger] } }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("the import's append worker ended (exit code 3)");
    expect(workers[0]!.threadId).toBe(-1);
  });

  it('a worker that cannot open its store fails the import with that error, before anything is written, and ends', async () => {
    const dir = tempDir('hermes-split');
    const source = join(dir, 'state.db');
    buildBulk(source, { conversations: 2, messages: 10, contentSize: 10 });
    const ledger = join(dir, 'ledger.sqlite');
    const store = ledgerAt(ledger);

    const missing = await importHermes(store, { path: source, appendThread: { module: STORE_MODULE, name: 'noSuchOpener', args: [] } }).catch((e: unknown) => e);
    expect((missing as Error).message).toContain('has no function noSuchOpener');
    const refused = await importHermes(store, { path: source, appendThread: sqliteOpener(join(dir, 'not-a-dir', 'x', '..', '..', 'state.db')) }).catch((e: unknown) => e);
    expect(isLedgerError(refused, 'store_unavailable')).toBe(true);

    expect(workers).toHaveLength(2);
    for (const worker of workers) expect(worker.threadId).toBe(-1);
    expect((await readStreamState(store, sessionStream('bulk-0'))).state).toBe('absent');
  });

  it('is used only when asked for, and never in a dry run', async () => {
    const dir = tempDir('hermes-split');
    const source = join(dir, 'state.db');
    buildBulk(source, { conversations: 8, messages: 30, contentSize: 50 });
    const ledger = join(dir, 'c.sqlite');

    const dry = await importHermes(ledgerAt(join(dir, 'a.sqlite')), { path: source, dryRun: true, appendThread: sqliteOpener(join(dir, 'a.sqlite')) });
    await importHermes(ledgerAt(join(dir, 'b.sqlite')), { path: source });
    expect(workers).toHaveLength(0);
    const wet = await importHermes(ledgerAt(ledger), { path: source, appendThread: sqliteOpener(ledger) });
    expect(workers).toHaveLength(1);
    expect({ ...wet, dryRun: true }).toEqual(dry);
  });
});
