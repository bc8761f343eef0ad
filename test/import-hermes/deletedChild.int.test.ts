import { describe, expect, it } from 'vitest';
import type { EventStore } from '@session-ledger/core';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import { listConversations, loadConversation } from '@session-ledger/sessions';
import { compressionChain, copyAt, deleteInHermes, deletionFixtures } from './fixtures/hermesDelete.js';
import type { Era } from './fixtures/schemas.js';

/**
 * Hermes deletes a compression segment (delete_session, prune_sessions) and keeps the segment it
 * continued: ended by the compression, with no child, resumed on its own. The ledger keeps both. The
 * next import found the ledger's continuation where the file has the compression end, called it
 * "written in the ledger since", skipped the session and exited 1 on every later import, and
 * `--verify` compared Hermes' segment with the ledger's whole conversation (outside test, session 30,
 * scenarios driven through Hermes e89532d's own delete_session and prune_sessions).
 */
const { copies, ways, hermes } = deletionFixtures();

const contents = async (store: EventStore, id: string) => (await loadConversation(store, id, { view: 'display' })).messages.map((m) => m.content);

describe.each<[Era]>([['current'], ['v2']])('a compression segment Hermes deleted (%s era)', (era) => {
  it.each(ways)('the tip: kept in the ledger and listed, the segment it continued verified as Hermes shows it (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    compressionChain(h, ['root', 'tip']);
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `tip-${era}-${way}.db`);
    expect((await importHermes(store, { path, ...options })).skipped).toEqual([]);

    deleteInHermes(h, 'tip');
    copyAt(h, copies, `tip-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ events: 0, skipped: [], noLongerInSource: ['tip'] });
    expect((await verifyHermes(store, path)).differences).toEqual([]);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ events: 0, skipped: [] });
    // The ledger deletes only when asked: the conversation still goes on into the tip, and resumes there.
    expect(await contents(store, 'root')).toContain('tip turn 1: what is in README?');
    expect((await loadConversation(store, 'root', { view: 'display' })).tipId).toBe('tip');
  });

  it.each(ways)('a middle one: the segment before it and the orphaned one after it each verified (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    compressionChain(h, ['root', 'mid', 'tip']);
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `mid-${era}-${way}.db`);
    expect((await importHermes(store, { path, ...options })).skipped).toEqual([]);

    deleteInHermes(h, 'mid');
    h.turns('tip', 1, 'after the delete');
    copyAt(h, copies, `mid-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['mid'] });
    expect(await verifyHermes(store, path)).toMatchObject({ conversations: 2, matched: 2, differences: [] });
    expect(await contents(store, 'root')).toContain('after the delete 0: what is in README?');
  });

  it.each(ways)('rows the file adds after the compression end: a conflict, nothing written after the continuation, and verify says so (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    compressionChain(h, ['root', 'tip']);
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `rows-${era}-${way}.db`);
    await importHermes(store, { path, ...options });
    const before = (await loadConversation(store, 'root', { view: 'raw' })).events.length;

    deleteInHermes(h, 'tip');
    h.turns('root', 1, 'resumed anyway');
    copyAt(h, copies, `rows-${era}-${way}.db`);
    const report = await importHermes(store, { path, ...options });
    expect(report.skipped).toEqual([expect.objectContaining({ session: 'root', reason: expect.stringContaining('a compression segment Hermes has since deleted') })]);
    expect((await loadConversation(store, 'root', { view: 'raw' })).events.length).toBe(before);
    expect((await verifyHermes(store, path)).differences).toEqual(expect.arrayContaining([expect.objectContaining({ conversation: 'root', kind: 'messages' })]));
  });

  // Hermes' own recovery before a turn on a session whose continuation is gone (reopen_orphaned_compression_session):
  // the end is cleared and the session goes on. The import skipped the session with a reason and exited 1 on every
  // later import, the new rows left out (outside test, session 31, helper-89 F2): the continuation is withdrawn now.
  it.each(ways)('Hermes reopens the segment and goes on in it: the continuation withdrawn, the rows imported, the child a conversation of its own (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    compressionChain(h, ['root', 'tip']);
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `went-on-${era}-${way}.db`);
    await importHermes(store, { path, ...options });

    deleteInHermes(h, 'tip');
    h.reopen('root');
    h.turns('root', 1, 'went on');
    copyAt(h, copies, `went-on-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['tip'] });
    const types = (await loadConversation(store, 'root', { view: 'raw' })).events.map((e) => e.type).filter((t) => t.startsWith('session.'));
    expect(types).toEqual(['session.started', 'session.continued', 'session.continuation_withdrawn']);
    const root = await loadConversation(store, 'root', { view: 'display' });
    expect(root.tipId).toBe('root');
    expect(root.messages.map((m) => m.content)).toContain('went on 0: what is in README?');
    expect(root.messages.map((m) => m.sessionId)).not.toContain('tip');
    // The ledger keeps what Hermes deleted: the child is a conversation of its own, listed and readable by its id.
    const tip = await loadConversation(store, 'tip', { view: 'display' });
    expect([tip.rootId, tip.tipId]).toEqual(['tip', 'tip']);
    expect(tip.messages.map((m) => m.content)).toContain('tip turn 1: what is in README?');
    expect((await listConversations(store)).map((row) => row.rootId).sort()).toEqual(['root', 'tip']);
    expect((await verifyHermes(store, path)).differences).toEqual([]);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ events: 0, skipped: [] });

    // It may be compressed again, its new child deleted, and the segment resumed once more.
    h.compress('root', 'tip2', '[CONTEXT COMPACTION] before tip2');
    h.turns('tip2', 2, 'tip2 turn');
    copyAt(h, copies, `went-on-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ skipped: [] });
    expect((await loadConversation(store, 'root', { view: 'display' })).tipId).toBe('tip2');
    deleteInHermes(h, 'tip2');
    h.reopen('root');
    h.turns('root', 1, 'again');
    copyAt(h, copies, `went-on-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['tip', 'tip2'] });
    const again = await loadConversation(store, 'root', { view: 'display' });
    expect(again.tipId).toBe('root');
    expect(again.messages.map((m) => m.content)).toContain('again 0: what is in README?');
    expect((await verifyHermes(store, path)).differences).toEqual([]);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ events: 0, skipped: [] });
  });

  // Hermes' own recovery runs for a stale agent that still holds the whole context, so it compresses again soon:
  // the next import saw a continuation into a new child and refused it as the gateway race (outside test, session 33, helper-93 F1).
  it.each(ways)('Hermes reopens the segment, goes on and compresses it again before the next import: withdrawn, then continued in the new child (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    compressionChain(h, ['root', 'tip']);
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `again-${era}-${way}.db`);
    await importHermes(store, { path, ...options });

    deleteInHermes(h, 'tip');
    h.reopen('root');
    h.turns('root', 1, 'went on');
    h.compress('root', 'tip2', '[CONTEXT COMPACTION] before tip2');
    h.turns('tip2', 1, 'tip2 turn');
    copyAt(h, copies, `again-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['tip'] });
    const root = await loadConversation(store, 'root', { view: 'display' });
    expect([root.tipId, root.segments.map((s) => s.sessionId)]).toEqual(['tip2', ['root', 'tip2']]);
    expect(root.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['went on 0: what is in README?', 'tip2 turn 0: what is in README?']));
    expect((await loadConversation(store, 'tip', { view: 'display' })).rootId).toBe('tip');
    expect((await verifyHermes(store, path)).differences).toEqual([]);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ events: 0, skipped: [] });
  });

  // An older copy of the file (still continuing in the child) imported after the withdrawal: refused as an older copy,
  // not as an event "written in the ledger since", which the import itself wrote (outside test, session 33, helper-93 F3).
  it.each(ways)('an older copy after the withdrawal: refused as an older copy, the ledger left as it is (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    compressionChain(h, ['root', 'tip']);
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `older-${era}-${way}.db`);
    await importHermes(store, { path, ...options });
    const older = copyAt(h, copies, `older-copy-${era}-${way}.db`);
    deleteInHermes(h, 'tip');
    h.reopen('root');
    h.turns('root', 1, 'went on');
    copyAt(h, copies, `older-${era}-${way}.db`);
    await importHermes(store, { path, ...options });
    const before = (await loadConversation(store, 'root', { view: 'raw' })).events.length;

    const report = await importHermes(store, { path: older, ...options });
    expect(report.skipped).toEqual([expect.objectContaining({ session: 'root', reason: expect.stringMatching(/an older copy of the file/) })]);
    expect((await loadConversation(store, 'root', { view: 'raw' })).events.length).toBe(before);
  });

  // Two compression children (the gateway race): the ledger continues into the one Hermes resumes, and
  // Hermes then deletes it. The reason said Hermes went on in the parent, which it did not (outside test, session 31, helper-89 F1).
  it.each(ways)('two compression children, the one the ledger continued into deleted: the reason names the other (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    compressionChain(h, ['root', 'first']);
    h.session({ id: 'second', parentId: 'root' });
    h.turns('second', 2, 'second');
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `race-${era}-${way}.db`);
    expect((await importHermes(store, { path, ...options })).skipped).toEqual([]);
    expect((await loadConversation(store, 'root', { view: 'display' })).tipId).toBe('second');
    const before = (await loadConversation(store, 'root', { view: 'raw' })).events.length;

    deleteInHermes(h, 'second');
    copyAt(h, copies, `race-${era}-${way}.db`);
    const report = await importHermes(store, { path, ...options });
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ session: 'root', reason: expect.stringMatching(/^the file now continues this session in the compression segment first, not in second, the one the ledger continued it in/) }),
        expect.objectContaining({ session: 'first', reason: expect.stringMatching(/^the file now makes this session the compression continuation of root; the ledger imported it as a conversation of its own/) }),
      ]),
    );
    expect((await loadConversation(store, 'root', { view: 'raw' })).events.length).toBe(before);
  });
});

// A child Hermes deleted on its own left its parent's link in the ledger, and the parent was skipped as
// "written in the ledger since" on every later import, its new rows left out (outside test, session 30).
describe.each<[Era]>([['current'], ['v2']])('a delegated or branched child Hermes deleted on its own (%s era)', (era) => {
  const links = async (store: EventStore) => (await loadConversation(store, 'parent', { view: 'raw' })).events.filter((e) => e.type === 'session.child_linked').length;

  it.each(ways)('a delegate: the parent goes on importing its new rows and verifies; the child and the link stay (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    h.session({ id: 'parent', title: 'Delegating' });
    h.turns('parent', 1, 'before');
    h.session({ id: 'sub', parentId: 'parent', source: 'subagent', modelConfig: { _delegate_from: 'parent' } });
    h.turns('sub', 1, 'subtask');
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `sub-${era}-${way}.db`);
    expect((await importHermes(store, { path, ...options })).skipped).toEqual([]);
    expect(await links(store)).toBe(1);

    deleteInHermes(h, 'sub');
    h.turns('parent', 1, 'after the delete');
    copyAt(h, copies, `sub-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ skipped: [], noLongerInSource: ['sub'] });
    expect((await verifyHermes(store, path)).differences).toEqual([]);
    expect(await contents(store, 'parent')).toContain('after the delete 0: what is in README?');
    expect(await links(store)).toBe(1);
    expect(await contents(store, 'sub')).toContain('subtask 0: what is in README?');
  });

  it.each(ways)('a branch: the session it branched from stays importable and verified (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    h.session({ id: 'parent', title: 'Branched' });
    h.turns('parent', 1, 'before');
    h.end('parent', 'branched');
    h.session({ id: 'branch', parentId: 'parent', modelConfig: { _branched_from: 'parent' } });
    h.turns('branch', 1, 'branched');
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `branch-${era}-${way}.db`);
    expect((await importHermes(store, { path, ...options })).skipped).toEqual([]);

    deleteInHermes(h, 'branch');
    copyAt(h, copies, `branch-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ events: 0, skipped: [], noLongerInSource: ['branch'] });
    expect((await verifyHermes(store, path)).differences).toEqual([]);
    expect(await links(store)).toBe(1);
  });
});
