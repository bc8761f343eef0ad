import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, readWholeStream, streamNames, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import { createHermesDb, type HermesFixture } from './fixtures/hermesDb.js';
import { importWays } from './fixtures/importWays.js';
import { tempDir } from './fixtures/scenarios.js';

/**
 * Hermes rewrites a transcript by deleting a session's rows and inserting the kept ones again under
 * new row ids (`replace_messages`: gateway `/retry`, an editor (ACP) save, a TUI edit). Before, the
 * next import found "the source differs" and skipped that session for good (outside test, session
 * 27, F9). Now the messages Hermes dropped are rewound (reason `replaced`) and the new rows follow.
 */
const open: HermesFixture[] = [];
const stores: EventStore[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) h.close();
  for (const s of stores.splice(0)) await s.close();
});

const snapshot = (h: HermesFixture, name: string): string => {
  h.db.pragma('wal_checkpoint(TRUNCATE)');
  const path = join(tempDir(), name);
  copyFileSync(h.path, path);
  return path;
};

const contents = async (store: EventStore) => {
  const out: Record<string, string[]> = {};
  // Session streams; the receipt of each file imported (a ledger- stream per path, ledger/receipt.ts) apart.
  for (const name of (await streamNames(store)).sort()) if (!name.startsWith('ledger-')) out[name] = (await readWholeStream(store, name)).map((e) => e.id);
  return out;
};

const messageIds = async (store: EventStore, session: string) =>
  (await readWholeStream(store, sessionStream(session)))
    .filter((e) => e.type === 'message.appended')
    .map((e) => (e.data as { messageId: string }).messageId);

/** The two ways the import writes: on this thread, and through the append worker (splitSessions). */
const ways = importWays(stores);

const conversation = () => {
  const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
  open.push(h);
  h.session({ id: 'retried', title: 'Retried' });
  h.session({ id: 'untouched', title: 'Untouched' });
  const first = h.turns('retried', 3, 'q');
  h.turns('untouched', 1, 'u');
  return { h, first };
};

describe.each(ways)('an import after Hermes rewrote a transcript (%s)', (_name, ledgerOf) => {
  it('takes the dropped messages out of the views, adds the new rows, keeps the old in raw, and a re-run writes nothing', async () => {
    const { h, first } = conversation();
    const before = snapshot(h, 'before.db');
    const { store, options } = ledgerOf();
    expect((await importHermes(store, { path: before, ...options })).skipped).toEqual([]);

    // /retry: the last exchange dropped, the rest written again, then the retried turn.
    const kept = h.replace('retried', 8, { activeOnly: true });
    expect(Math.min(...kept)).toBeGreaterThan(Math.max(...first));
    h.turns('retried', 1, 'retry');
    const after = snapshot(h, 'after.db');
    const report = await importHermes(store, { path: after, ...options });
    expect(report.skipped).toEqual([]);
    expect(report).toMatchObject({ replaced: 12, messages: 12, updated: 1 });
    expect((await verifyHermes(store, after)).differences).toEqual([]);
    const ids = await messageIds(store, 'retried');
    for (const row of first) expect(ids).toContain(`hm-${row}`);
    expect(ids).toHaveLength(24);

    const again = await importHermes(store, { path: after, ...options });
    expect(again).toMatchObject({ events: 0, replaced: 0, skipped: [] });
    // The same events as a ledger that followed the same two copies from the start.
    const replay = createMemoryStore();
    await importHermes(replay, { path: before });
    await importHermes(replay, { path: after });
    expect(await contents(store)).toEqual(await contents(replay));

    // A second rewrite retires the first rewrite's rows in turn.
    h.replace('retried', 4, { activeOnly: true });
    h.turns('retried', 1, 'second retry');
    const later = snapshot(h, 'later.db');
    const third = await importHermes(store, { path: later, ...options });
    expect(third).toMatchObject({ replaced: 12, skipped: [] });
    expect((await verifyHermes(store, later)).differences).toEqual([]);
  });
});

/**
 * `/retry` in a compression segment: Hermes inserts the segment's summary row again too, so the
 * segment's start, its summary and the parent's continuation are named by a new row id. Both were
 * skipped for good ("the ledger holds 1 / 13 event(s) after what this file has") until session 28.
 */
describe.each([
  ['flagged (`_compressed_summary`, schema 30)', false],
  ['recognised by its text (schemas up to 29)', true],
])('a rewrite in a compression segment whose summary row is %s', (_name, byText) => {
  it.each(ways)('is followed in the segment and its parent (%s)', async (_way, ledgerOf) => {
    const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
    open.push(h);
    h.session({ id: 'parent', title: 'Long' });
    h.turns('parent', 2, 'early');
    h.compress('parent', 'segment', '[CONTEXT COMPACTION] what came before');
    h.turns('segment', 3, 'later');
    if (byText) h.dropSummaryFlag();
    const { store, options } = ledgerOf();
    expect((await importHermes(store, { path: snapshot(h, 'before.db'), ...options })).skipped).toEqual([]);
    h.replace('segment', 9, { activeOnly: true });
    h.turns('segment', 1, 'retry');
    const after = snapshot(h, 'after.db');
    const report = await importHermes(store, { path: after, ...options });
    expect([report.skipped, report.updated]).toEqual([[], 1]);
    expect((await verifyHermes(store, after)).differences).toEqual([]);
    expect(await importHermes(store, { path: after, ...options })).toMatchObject({ events: 0, skipped: [] });
    h.replace('segment', 5, { activeOnly: true });
    h.turns('segment', 1, 'again');
    const later = snapshot(h, 'later.db');
    expect((await importHermes(store, { path: later, ...options })).skipped).toEqual([]);
    expect((await verifyHermes(store, later)).differences).toEqual([]);
  });
});

describe('rewrites around rows Hermes keeps', () => {
  it('rows taken back (/undo) survive a rewrite; the rows before them that Hermes deleted still leave the views (outside test, session 28, F1)', async () => {
    const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
    open.push(h);
    h.session({ id: 'u' });
    const rows = h.turns('u', 3, 'q');
    const store = createMemoryStore();
    await importHermes(store, { path: snapshot(h, 'one.db') });
    h.rewind('u', rows[8]!);
    h.turns('u', 1, 'after undo');
    await importHermes(store, { path: snapshot(h, 'two.db') });
    h.replace('u', 4, { activeOnly: true });
    h.turns('u', 1, 'retried');
    const three = snapshot(h, 'three.db');
    const report = await importHermes(store, { path: three });
    expect([report.skipped, report.replaced]).toEqual([[], 12]);
    expect((await verifyHermes(store, three)).differences).toEqual([]);
    expect(await importHermes(store, { path: three })).toMatchObject({ events: 0, skipped: [] });
  });

  it('a rewrite of a session that delegated: the child link placed by time among re-inserted rows is the held one (F3)', async () => {
    const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
    open.push(h);
    h.session({ id: 'd' });
    h.turns('d', 1, 'before');
    h.session({ id: 'sub', parentId: 'd', source: 'subagent', modelConfig: { _delegate_from: 'd' } });
    h.message('sub', { role: 'user', content: 'Subtask' });
    h.turns('d', 2, 'after');
    const store = createMemoryStore();
    await importHermes(store, { path: snapshot(h, 'one.db') });
    h.replace('d', 8, { activeOnly: true });
    h.turns('d', 1, 'retried');
    const two = snapshot(h, 'two.db');
    const report = await importHermes(store, { path: two });
    expect(report.skipped).toEqual([]);
    expect((await verifyHermes(store, two)).differences).toEqual([]);
    expect(await importHermes(store, { path: two })).toMatchObject({ events: 0, skipped: [] });
  });
});

describe('what a rewrite does not explain stays a conflict', () => {
  it('a copy of the file that went its own way (another machine) never hides what the first copy shows (F5)', async () => {
    // Two copies of one file (the same clock, so the same shared rows), each going on in its own way.
    const copy = (name: string) => {
      const h = createHermesDb(join(tempDir(), name), 'current');
      open.push(h);
      h.session({ id: 's' });
      h.turns('s', 1, 'shared');
      return h;
    };
    const first = copy('first.db');
    first.turns('s', 1, 'only in the first copy');
    const second = copy('second.db');
    second.session({ id: 't' });
    second.turns('t', 1, 'another session');
    second.turns('s', 1, 'only in the second copy');
    const store = createMemoryStore();
    await importHermes(store, { path: snapshot(first, 'first-copy.db') });
    const held = await contents(store);
    const report = await importHermes(store, { path: snapshot(second, 'second-copy.db') });
    expect(report.skipped).toEqual([expect.objectContaining({ session: 's', reason: expect.stringMatching(/another copy of the file/) })]);
    expect((await contents(store))['session-s']).toEqual(held['session-s']);
    expect(report.replaced).toBe(0);
  });

  it('an older copy imported after a newer one changes nothing and says the ledger is ahead', async () => {
    const { h } = conversation();
    const before = snapshot(h, 'before.db');
    h.replace('retried', 8, { activeOnly: true });
    h.turns('retried', 1, 'retry');
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    const held = await contents(store);
    const report = await importHermes(store, { path: before });
    expect(report.skipped).toEqual([expect.objectContaining({ session: 'retried', reason: expect.stringMatching(/source differs|ledger holds/) })]);
    expect(await contents(store)).toEqual(held);
  });

  it('a message another writer added in the ledger is never hidden by a rewrite', async () => {
    const { h } = conversation();
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    const events = await readWholeStream(store, sessionStream('retried'));
    await createLedger(store).append(
      sessionStream('retried'),
      [{ id: newId(), type: 'message.appended', data: { messageId: 'mine', role: 'user', content: 'written in the ledger', timestamp: new Date().toISOString() } }],
      { expectedRevision: events.at(-1)!.revision },
    );
    h.replace('retried', 8, { activeOnly: true });
    h.turns('retried', 1, 'retry');
    const held = await contents(store);
    const report = await importHermes(store, { path: h.path });
    expect(report.skipped).toEqual([expect.objectContaining({ session: 'retried', reason: expect.stringMatching(/ledger holds 1 event\(s\) this file does not have that the import did not write/) })]);
    expect(await contents(store)).toEqual(held);
  });

  it('the last row changed in place (same row id, new content) is not taken for a rewrite', async () => {
    const { h, first } = conversation();
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    const held = await contents(store);
    h.db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('changed behind our back', first.at(-1));
    const report = await importHermes(store, { path: h.path });
    expect(report.skipped).toEqual([expect.objectContaining({ session: 'retried', reason: expect.stringMatching(/a row changed in place/) })]);
    expect(await contents(store)).toEqual(held);
  });
});

/**
 * In-place compaction, `/retry`, more turns, then a second in-place compaction: the second archives
 * the row the rewrite inserted again for the first summary, which the file then no longer marks as a
 * summary (its flag is gone, and an archived row is not read as one by its text). `--verify` still
 * counted the ledger's first summary: 1 against 2 summaries, exit 1 on this and every later import,
 * while the views equalled Hermes' (outside test, session 28, F4).
 */
describe('a second in-place compaction after a rewrite of a compacted session', () => {
  it.each(ways)('verifies after each import (%s)', async (_way, ledgerOf) => {
    const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
    open.push(h);
    h.session({ id: 'ip', title: 'In place' });
    h.turns('ip', 3, 'early');
    h.compactInPlace('ip', '[CONTEXT COMPACTION] the three early turns', 2);
    h.dropSummaryFlag();
    h.turns('ip', 1, 'before retry');
    const { store, options } = ledgerOf();
    const steps: Array<() => void> = [
      () => {
        h.replace('ip', 5, { activeOnly: true });
        h.turns('ip', 1, 'retried');
      },
      () => h.turns('ip', 2, 'later'),
      () => h.compactInPlace('ip', '[CONTEXT COMPACTION] everything so far', 2),
      () => h.turns('ip', 1, 'after'),
    ];
    const verified: Array<[number, unknown[]]> = [];
    for (const [index, step] of [() => undefined, ...steps].entries()) {
      step();
      const path = snapshot(h, `step${index}.db`);
      expect((await importHermes(store, { path, ...options })).skipped).toEqual([]);
      verified.push([index, (await verifyHermes(store, path)).differences]);
    }
    expect(verified).toEqual(verified.map(([index]) => [index, []]));
  });
});
