import { describe, expect, it } from 'vitest';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import { loadConversation } from '@session-ledger/sessions';
import { copyAt, deletionFixtures } from './fixtures/hermesDelete.js';
import type { Era } from './fixtures/schemas.js';

/**
 * Hermes' CLI ends its session on exit (`cli_close`) and `hermes --resume` reopens it
 * (`reopen_session` clears `ended_at` and `end_reason`), then the conversation goes on. The import had
 * written the end; the next import called it "written in the ledger since", skipped the session and
 * left out every row after the resume, exit 1 on every later import (outside test, session 30, with
 * Hermes e89532d's own `end_session` and `reopen_session`). The ledger now reopens it.
 */
const { copies, ways, hermes } = deletionFixtures();

describe.each<[Era]>([['current'], ['v2']])('a session Hermes ended and resumed (%s era)', (era) => {
  it.each(ways)('is reopened in the ledger, its new rows follow, and it may end again (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    h.session({ id: 'cli' });
    h.turns('cli', 1, 'first');
    h.end('cli', 'cli_close');
    const { store, options } = ledgerOf();
    const path = copyAt(h, copies, `reopen-${era}-${way}.db`);
    const imported = (p = path) => importHermes(store, { path: p, ...options });
    expect((await imported()).skipped).toEqual([]);

    h.reopen('cli');
    copyAt(h, copies, `reopen-${era}-${way}.db`);
    expect(await imported()).toMatchObject({ events: 1, skipped: [] });
    expect((await verifyHermes(store, path)).differences).toEqual([]);
    expect(await imported()).toMatchObject({ events: 0, skipped: [] });

    h.turns('cli', 1, 'resumed');
    h.end('cli', 'cli_close');
    h.reopen('cli');
    h.turns('cli', 1, 'resumed again');
    copyAt(h, copies, `reopen-${era}-${way}.db`);
    expect(await imported()).toMatchObject({ skipped: [] });
    expect((await verifyHermes(store, path)).differences).toEqual([]);
    const raw = await loadConversation(store, 'cli', { view: 'raw' });
    expect(raw.events.map((e) => e.type).filter((t) => t.startsWith('session.'))).toEqual(['session.started', 'session.ended', 'session.reopened']);
    expect((await loadConversation(store, 'cli', { view: 'display' })).messages.map((m) => m.content)).toContain('resumed again 0: what is in README?');
    expect(await imported()).toMatchObject({ events: 0, skipped: [] });
  });

  it.each(ways)('an older copy, still ended, imported after the resume: a conflict, the ledger left as it is (%s)', async (way, ledgerOf) => {
    const h = hermes(era);
    h.session({ id: 'cli' });
    h.turns('cli', 1, 'first');
    h.end('cli', 'cli_close');
    const older = copyAt(h, copies, `older-${era}-${way}.db`);
    h.reopen('cli');
    h.turns('cli', 1, 'resumed');
    const { store, options } = ledgerOf();
    await importHermes(store, { path: copyAt(h, copies, `newer-${era}-${way}.db`), ...options });
    const before = (await loadConversation(store, 'cli', { view: 'raw' })).events.length;

    expect((await importHermes(store, { path: older, ...options })).skipped).toEqual([expect.objectContaining({ session: 'cli' })]);
    expect((await loadConversation(store, 'cli', { view: 'raw' })).events.length).toBe(before);
  });
});
