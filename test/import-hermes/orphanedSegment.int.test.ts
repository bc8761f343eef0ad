import { describe, expect, it } from 'vitest';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import { loadConversation } from '@session-ledger/sessions';
import type { HermesFixture } from './fixtures/hermesDb.js';
import { copyAt, deleteInHermes, deletionFixtures } from './fixtures/hermesDelete.js';
import type { Era } from './fixtures/schemas.js';

/**
 * Hermes' delete_session deletes a session and its delegates, and orphans its compression and branch
 * children (`parent_session_id` set to NULL): Hermes then lists a compression segment as a
 * conversation of its own. The next import planned it as a root, found the ledger's start (a
 * continuation) different, and skipped it for good, exit 1, with every row Hermes wrote there since
 * left out (found in session 29). The ledger keeps the lineage, and the parent, which the report lists
 * as no longer in the file; the segment's held start stands for the plan's, and its new rows follow.
 */
const { copies, ways, hermes } = deletionFixtures();

const snapshot = (h: HermesFixture, name: string): string => copyAt(h, copies, name);

/** A conversation `parent` compressed into `segment`, with `later` turns in the segment. */
const compressed = (era: Era, later: number): HermesFixture => {
  const h = hermes(era);
  h.session({ id: 'parent', title: 'Long' });
  h.turns('parent', 2, 'early');
  h.compress('parent', 'segment', '[CONTEXT COMPACTION] what came before');
  h.turns('segment', later, 'later');
  return h;
};

describe.each<[Era]>([['current'], ['v2']])('a compression segment whose parent Hermes deleted (%s era)', (era) => {
  it.each(ways)('is followed, verified, and its parent kept and listed (%s)', async (_way, ledgerOf) => {
    const h = compressed(era, 2);
    const { store, options } = ledgerOf();
    expect((await importHermes(store, { path: snapshot(h, `${era}-${_way}.db`), ...options })).skipped).toEqual([]);

    deleteInHermes(h, 'parent');
    h.turns('segment', 1, 'after the delete');
    const after = snapshot(h, `${era}-${_way}.db`);
    const report = await importHermes(store, { path: after, ...options });
    expect(report).toMatchObject({ skipped: [], messages: 4, updated: 1, noLongerInSource: ['parent'] });
    expect((await verifyHermes(store, after)).differences).toEqual([]);
    // The ledger still shows the whole conversation: it deletes only when asked.
    const shown = await loadConversation(store, 'segment', { view: 'display' });
    expect(shown.messages.map((m) => m.content)).toContain('later 0: what is in README?');
    expect(shown.messages.map((m) => m.content)).toContain('early 0: what is in README?');
    expect(shown.messages.map((m) => m.content)).toContain('after the delete 0: what is in README?');
    expect(await importHermes(store, { path: after, ...options })).toMatchObject({ events: 0, skipped: [] });

    // A /retry in the orphan: Hermes inserts its rows again, the summary row among them.
    h.replace('segment', 9, { activeOnly: true });
    h.turns('segment', 1, 'retried');
    const later = snapshot(h, `${era}-${_way}.db`);
    expect(await importHermes(store, { path: later, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['parent'] });
    expect((await verifyHermes(store, later)).differences).toEqual([]);
  });

  // Hermes took back every row of the orphan, its summary row with them (/undo past it): the file's
  // segment starts with the next turn, and --verify counted the summary the ledger keeps in the
  // segment's start as a message the file lacks (outside test, session 30, F2).
  it.each(ways)('is verified after an /undo took its summary row back (%s)', async (_way, ledgerOf) => {
    const h = compressed(era, 1);
    const { store, options } = ledgerOf();
    const path = `${era}-${_way}-undone.db`;
    await importHermes(store, { path: snapshot(h, path), ...options });
    deleteInHermes(h, 'parent');
    h.turns('segment', 1, 'after the delete');
    await importHermes(store, { path: snapshot(h, path), ...options });
    expect((await verifyHermes(store, snapshot(h, path))).differences).toEqual([]);
    h.replace('segment', 0, { activeOnly: true });
    h.turns('segment', 1, 'fresh');
    const undone = snapshot(h, path);
    expect(await importHermes(store, { path: undone, ...options })).toMatchObject({ skipped: [] });
    expect((await verifyHermes(store, undone)).differences).toEqual([]);
    const shown = await loadConversation(store, 'segment', { view: 'display' });
    const own = shown.messages.filter((m) => m.sessionId === 'segment').map((m) => m.content);
    expect([own[0], own.length]).toEqual(['fresh 0: what is in README?', 4]);
  });

  // The summary row got a new id from a /retry before the parent was deleted: the held start names the
  // first id, the plan's message the second, and the segment was refused for good (outside test, session 30, F1).
  it.each(ways)('is followed when a /retry re-keyed its summary before the parent went (%s)', async (_way, ledgerOf) => {
    const h = compressed(era, 2);
    const { store, options } = ledgerOf();
    const path = `${era}-${_way}-rekeyed.db`;
    expect((await importHermes(store, { path: snapshot(h, path), ...options })).skipped).toEqual([]);
    h.replace('segment', 9, { activeOnly: true });
    h.turns('segment', 1, 'retried');
    const retried = snapshot(h, path);
    expect((await importHermes(store, { path: retried, ...options })).skipped).toEqual([]);
    expect((await verifyHermes(store, retried)).differences).toEqual([]);

    deleteInHermes(h, 'parent');
    h.turns('segment', 1, 'after the delete');
    const after = snapshot(h, path);
    expect(await importHermes(store, { path: after, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['parent'] });
    expect((await verifyHermes(store, after)).differences).toEqual([]);
    const shown = await loadConversation(store, 'segment', { view: 'display' });
    expect(shown.messages.map((m) => m.content)).toContain('after the delete 0: what is in README?');
    expect(await importHermes(store, { path: after, ...options })).toMatchObject({ events: 0, skipped: [] });
  });
});

/**
 * A compression child as Hermes' compress_context writes it: the head user row copied, then the
 * summary (an assistant row, after the user head). Two /undo as an edit does them
 * (`replace_messages(..., active_only=True, archive_dropped=True)`), the second cutting before the head:
 * the summary row stays in the file, archived (`active = 0`), and Hermes no longer shows it. --verify
 * counted it while the file held the row, whether or not Hermes shows it (outside test, session 31, F5).
 */
describe('an orphaned segment whose summary row an /undo archived', () => {
  const headed = (): HermesFixture => {
    const h = hermes('current');
    h.session({ id: 'w1', title: 'Long' });
    h.turns('w1', 2, 'early');
    h.end('w1', 'compression');
    h.session({ id: 'w2', parentId: 'w1', title: null });
    h.message('w2', { role: 'user', content: 'early 0: what is in README?' });
    h.message('w2', { role: 'assistant', content: '[CONTEXT COMPACTION] what came before', summary: true });
    h.turns('w2', 1, 'later');
    return h;
  };
  const undoTwice = (h: HermesFixture) => {
    h.replace('w2', 2, { activeOnly: true, archiveDropped: true });
    h.replace('w2', 0, { activeOnly: true, archiveDropped: true });
  };

  it.each(ways)('is verified when the parent goes first (%s)', async (way, ledgerOf) => {
    const h = headed();
    const { store, options } = ledgerOf();
    const path = `archived-${way}-a.db`;
    expect((await importHermes(store, { path: snapshot(h, path), ...options })).skipped).toEqual([]);
    deleteInHermes(h, 'w1');
    expect(await importHermes(store, { path: snapshot(h, path), ...options })).toMatchObject({ skipped: [], noLongerInSource: ['w1'] });
    undoTwice(h);
    const undone = snapshot(h, path);
    expect(await importHermes(store, { path: undone, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['w1'] });
    expect((await verifyHermes(store, undone)).differences).toEqual([]);
  });

  it.each(ways)('is verified when the /undo comes first (%s)', async (way, ledgerOf) => {
    const h = headed();
    const { store, options } = ledgerOf();
    const path = `archived-${way}-b.db`;
    expect((await importHermes(store, { path: snapshot(h, path), ...options })).skipped).toEqual([]);
    undoTwice(h);
    deleteInHermes(h, 'w1');
    const undone = snapshot(h, path);
    expect(await importHermes(store, { path: undone, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['w1'] });
    expect((await verifyHermes(store, undone)).differences).toEqual([]);
  });
});
