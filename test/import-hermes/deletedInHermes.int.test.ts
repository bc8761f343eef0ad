import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, readAllPages, type EventStore } from '@session-ledger/core';
import { deleteSession } from '@session-ledger/retention';
import { importHermes } from '@session-ledger/import-hermes';
import { loadConversation, startSession } from '@session-ledger/sessions';
import { createHermesDb, type HermesFixture } from './fixtures/hermesDb.js';
import { tempDir } from './fixtures/scenarios.js';

/**
 * A session Hermes deleted after an import stayed in the ledger, and no later import said so
 * (`skipped: []`; outside test, session 27, F2): a user who deleted a conversation in Hermes, often for
 * privacy, was never told the ledger still holds it. The ledger keeps it (it never deletes on its
 * own), and every import of the file now lists it under `noLongerInSource` until it is deleted there.
 */
const open: HermesFixture[] = [];
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

const hermesFile = () => {
  const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
  open.push(h);
  h.session({ id: 'kept', title: 'Kept' });
  h.turns('kept', 2, 'k');
  h.session({ id: 'private', title: 'Deleted in Hermes' });
  h.turns('private', 1, 'p');
  return h;
};

/** What Hermes' `delete_session` does to a session without delegates: its rows and its session row go. */
const deleteInHermes = (h: HermesFixture, id: string) => {
  h.db.prepare('DELETE FROM messages WHERE session_id = ?').run(id);
  h.db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
};

const eventCount = async (store: EventStore) => {
  let n = 0;
  for await (const page of readAllPages(store)) n += page.length;
  return n;
};

describe('a session Hermes deleted after it was imported', () => {
  it('is listed by every later import of the file, kept in the ledger, and no longer once deleted there', async () => {
    const h = hermesFile();
    const store = createMemoryStore();
    expect((await importHermes(store, { path: h.path })).noLongerInSource).toEqual([]);
    deleteInHermes(h, 'private');
    h.turns('kept', 1, 'later');

    const dry = await importHermes(store, { path: h.path, dryRun: true });
    expect(dry.noLongerInSource).toEqual(['private']);
    const report = await importHermes(store, { path: h.path });
    expect(report).toMatchObject({ noLongerInSource: ['private'], skipped: [], messages: 4 });
    expect((await loadConversation(store, 'private', { view: 'display' })).messages).toHaveLength(4);
    // Stated again on every import, and a repeated import writes nothing.
    const before = await eventCount(store);
    expect(await importHermes(store, { path: h.path })).toMatchObject({ noLongerInSource: ['private'], events: 0 });
    expect(await eventCount(store)).toBe(before);

    await deleteSession(createLedger(store), 'private');
    expect((await importHermes(store, { path: h.path })).noLongerInSource).toEqual([]);
  });

  it('is not reported when the import refused it: the session of that id in the ledger did not come from the file (outside test, session 30)', async () => {
    const h = hermesFile();
    const store = createMemoryStore();
    // Another harness wrote a session 'private' into the ledger first: the file's is a conflict, refused.
    await startSession({ ledger: createLedger(store), now: () => new Date('2026-01-01T00:00:00Z') }, { id: 'private', title: 'the ledger own' });
    const first = await importHermes(store, { path: h.path });
    expect(first.skipped.map((skip) => skip.session)).toEqual(['private']);
    deleteInHermes(h, 'private');
    expect((await importHermes(store, { path: h.path })).noLongerInSource).toEqual([]);
    // A session the file brought in is still listed once Hermes deletes it.
    deleteInHermes(h, 'kept');
    expect((await importHermes(store, { path: h.path })).noLongerInSource).toEqual(['kept']);
  });

  it('re-created by Hermes under the same id is refused as another conversation under that id, not as a write in the ledger (outside test, session 31)', async () => {
    const h = hermesFile();
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    deleteInHermes(h, 'private');
    expect((await importHermes(store, { path: h.path })).noLongerInSource).toEqual(['private']);
    h.session({ id: 'private', title: 'A new one' });
    h.turns('private', 1, 'new');
    const report = await importHermes(store, { path: h.path });
    expect(report.skipped).toEqual([
      expect.objectContaining({ session: 'private', reason: expect.stringMatching(/^the file's session of this id is another conversation than the one imported under it before/) }),
    ]);
    // The conversation the ledger holds under that id is still one the file no longer has (helper-89 F3: it was no longer listed).
    expect(report.noLongerInSource).toEqual(['private']);
    expect((await loadConversation(store, 'private', { view: 'display' })).messages.map((m) => m.content)).toContain('p 0: what is in README?');
  });

  it('is told apart per file: a copy at another path has its own receipt; the same file through a symbolic link is the same', async () => {
    const h = hermesFile();
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    const dir = join(tempDir(), 'copy');
    mkdirSync(dir);
    const copy = join(dir, 'state.db');
    copyFileSync(h.path, copy);
    deleteInHermes(h, 'private');
    expect((await importHermes(store, { path: copy })).noLongerInSource).toEqual([]);
    const link = join(dir, 'link.db');
    symlinkSync(h.path, link);
    expect((await importHermes(store, { path: link })).noLongerInSource).toEqual(['private']);
    expect((await importHermes(store, { path: h.path })).noLongerInSource).toEqual(['private']);
  });

  it('is not reported when no import wrote the receipt of the file (a dry run records nothing)', async () => {
    const h = hermesFile();
    const store = createMemoryStore();
    await importHermes(store, { path: h.path, dryRun: true });
    deleteInHermes(h, 'private');
    expect((await importHermes(store, { path: h.path })).noLongerInSource).toEqual([]);
  });

  it('records only ids the ledger can take as session ids: a hostile id in the file makes no receipt entry', async () => {
    const h = hermesFile();
    h.session({ id: `long-${'x'.repeat(300)}`, title: 'an id the ledger refuses' });
    h.session({ id: 'a space', title: 'another' });
    // No URL can name these, so the ledger takes neither as a session id (outside test, session 30: they were recorded).
    h.session({ id: '.', title: 'a dot' });
    h.session({ id: '..', title: 'two dots' });
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    const received: string[] = [];
    for await (const page of readAllPages(store)) {
      for (const event of page) if (event.type === 'hermes.sessions_received') received.push(...(event.data as { sessionIds: string[] }).sessionIds);
    }
    expect(received.sort()).toEqual(['kept', 'private']);
  });
});
