import { describe, expect, it } from 'vitest';
import { createHermesReader, hermesViews, importHermes, readSnapshot, verifyHermes } from '@session-ledger/import-hermes';
import { loadConversation } from '@session-ledger/sessions';
import { copyAt, deletionFixtures } from './fixtures/hermesDelete.js';
import type { HermesFixture } from './fixtures/hermesDb.js';
import type { Era } from './fixtures/schemas.js';

/**
 * A `/branch` that is later compressed, as Hermes e89532d writes it: the parent ended `branched`, the
 * branch marked `_branched_from` with the parent's history copied into it (`append_messages_batch`),
 * then `publish_compression_child` of the branch, whose child carries no marker. Resuming the branch,
 * Hermes lands in that child and reads its whole parent chain: the parent's rows, then the branch's
 * copy of them, then the rest. The ledger shows the branch as the conversation of its own it is (the
 * copy once); `--verify` reported the difference on every import, exit 1 (outside test, session 31,
 * helper-89 F4).
 */
const { copies, ways, hermes } = deletionFixtures();

const branchThenCompress = (h: HermesFixture): void => {
  h.session({ id: 'p1', title: 'Branched' });
  h.turns('p1', 2, 'p1 turn');
  h.end('p1', 'branched');
  h.session({ id: 'p2', parentId: 'p1', modelConfig: { _branched_from: 'p1' } });
  const columns = (h.db.prepare('PRAGMA table_info(messages)').all() as Array<{ name: string }>).map((c) => c.name).filter((name) => name !== 'id' && name !== 'session_id');
  h.db.prepare(`INSERT INTO messages (session_id, ${columns.join(', ')}) SELECT 'p2', ${columns.join(', ')} FROM messages WHERE session_id = 'p1' ORDER BY id`).run();
  h.turns('p2', 1, 'p2 turn');
  h.compress('p2', 'p3', '[CONTEXT COMPACTION] of the branch');
  h.turns('p3', 1, 'p3 turn');
};

describe.each<[Era]>([['current'], ['v2']])('a branch Hermes compressed later (%s era)', (era) => {
  it.each(ways)('is verified as the ledger shows it: from the branch on, the parent rows once (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    branchThenCompress(h);
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `branch-compressed-${era}-${way}.db`);
    expect((await importHermes(store, { path, ...options })).skipped).toEqual([]);
    expect((await verifyHermes(store, path)).differences).toEqual([]);

    const shown = (await loadConversation(store, 'p2', { view: 'display' })).messages.map((m) => m.content);
    expect(shown.filter((content) => content === 'p1 turn 0: what is in README?')).toHaveLength(1);
    expect(shown.at(-1)).toMatch(/p3 turn|README/);
    // Hermes' own display reads p1's rows above the branch's copy of them: the difference the ledger keeps.
    const hermesOwn = hermesViews(createHermesReader(readSnapshot(path)), 'p2');
    expect(hermesOwn.resumeTarget).toBe('p3');
    expect(hermesOwn.display.filter((item) => item.content === 'p1 turn 0: what is in README?')).toHaveLength(2);

    h.turns('p3', 1, 'later');
    copyAt(h, copies, `branch-compressed-${era}-${way}.db`);
    expect(await importHermes(store, { path, ...options })).toMatchObject({ skipped: [] });
    expect((await verifyHermes(store, path)).differences).toEqual([]);
  });
});
