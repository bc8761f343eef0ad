import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '@session-ledger/core';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import { loadConversation } from '@session-ledger/sessions';
import { createHermesDb, type HermesFixture } from './fixtures/hermesDb.js';
import { importedBefore } from './fixtures/importedBefore.js';
import { tempDir } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

/**
 * An in-place compaction whose compacted set repeats rows it archived (same role, content, timestamp
 * and tool fields) after a summary row Hermes recognises by its text (no `_compressed_summary` column,
 * schemas up to 29): Hermes' watermark path (rows that arrived during the summary are archived and
 * cloned after it) and a caller that passes the carried tail with its original timestamps. Hermes
 * shows each such message once, at its live copy (e89532d `get_messages(include_compacted=True)`:
 * the row with the highest (active, id), in id order). The ledger showed it twice (outside test,
 * session 27, F4).
 */
/**
 * Archives every active row of `session` (compacted = 1) and writes, in the same transaction, an
 * unflagged summary row and `repeats` (rows repeating archived ones: same role, content, timestamp).
 */
const compactRepeating = (h: HermesFixture, session: string, summary: { content: string; timestamp: number }, repeats: Array<[string, string, number]>) => {
  h.db.transaction(() => {
    h.db.prepare('UPDATE messages SET active = 0, compacted = 1 WHERE session_id = ? AND active = 1').run(session);
    h.message(session, { role: 'user', ...summary });
    for (const [role, content, timestamp] of repeats) h.message(session, { role, content, timestamp });
  })();
};

const build = () => {
  const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
  open.push(h);
  const at = 1_800_000_000;
  const turns = (session: string, from: number) =>
    ['user', 'assistant', 'user', 'assistant'].forEach((role, i) => h.message(session, { role, content: `${session} ${i}`, timestamp: from + i }));
  h.session({ id: 'wm', startedAt: at - 1 });
  turns('wm', at);
  // Rows that arrived during the summary: archived with the rest, cloned after the summary.
  h.message('wm', { role: 'user', content: 'late user (arrived during summary)', timestamp: at + 10 });
  h.message('wm', { role: 'assistant', content: 'late reply', timestamp: at + 11 });
  compactRepeating(h, 'wm', { content: '[CONTEXT COMPACTION] summary wm', timestamp: at + 5 }, [
    ['user', 'late user (arrived during summary)', at + 10],
    ['assistant', 'late reply', at + 11],
  ]);
  h.message('wm', { role: 'user', content: 'after', timestamp: at + 20 });
  // The carried tail passed with its original timestamps (archive_and_compact archives every active row).
  h.session({ id: 'tail', startedAt: at + 99 });
  turns('tail', at + 100);
  compactRepeating(h, 'tail', { content: '[CONTEXT COMPACTION] summary tail', timestamp: at + 104 }, [
    ['user', 'tail 2', at + 102],
    ['assistant', 'tail 3', at + 103],
  ]);
  h.message('tail', { role: 'user', content: 'tail after', timestamp: at + 110 });
  h.dropSummaryFlag();
  return h;
};

describe('a compaction that repeats rows it archived', () => {
  it('shows each message once, where Hermes shows it, and sends the model what Hermes does', async () => {
    const h = build();
    const store = createMemoryStore();
    const report = await importHermes(store, { path: h.path });
    expect(report.skipped).toEqual([]);
    const display = await loadConversation(store, 'wm', { view: 'display' });
    expect(display.messages.map((m) => m.content)).toEqual([
      'wm 0', 'wm 1', 'wm 2', 'wm 3', '[CONTEXT COMPACTION] summary wm', 'late user (arrived during summary)', 'late reply', 'after',
    ]);
    const active = await loadConversation(store, 'wm', { view: 'active' });
    expect(active.messages.map((m) => m.content)).toEqual(['[CONTEXT COMPACTION] summary wm', 'late user (arrived during summary)', 'late reply', 'after']);
    const tail = await loadConversation(store, 'tail', { view: 'display' });
    expect(tail.messages.map((m) => m.content)).toEqual(['tail 0', 'tail 1', '[CONTEXT COMPACTION] summary tail', 'tail 2', 'tail 3', 'tail after']);
    expect((await verifyHermes(store, h.path)).differences).toEqual([]);
    const again = await importHermes(store, { path: h.path });
    expect([again.events, again.skipped]).toEqual([0, []]);
  });

  it('a ledger that imported such a session before holds the repeats without the rewinds: the next import appends them', async () => {
    const h = build();
    const now = createMemoryStore();
    await importHermes(now, { path: h.path });
    const before = await importedBefore(now, 'carried_over');
    const report = await importHermes(before, { path: h.path });
    expect([report.skipped, report.events]).toEqual([[], 4]);
    expect((await verifyHermes(before, h.path)).differences).toEqual([]);
    const again = await importHermes(before, { path: h.path });
    expect([again.events, again.skipped]).toEqual([0, []]);
  });
});
