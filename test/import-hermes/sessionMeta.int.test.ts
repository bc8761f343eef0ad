import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, readWholeStream, type JsonObject } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
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
 * A fresh gateway session starts its transcript with a header row (role `session_meta`, no content:
 * gateway/run.py writes it through `append_to_transcript`). Every Hermes reader drops it: the CLI
 * before showing or resuming, the gateway before the model. The ledger showed it as an empty system
 * message, first in the display and in what a resuming harness sends (outside test, session 27, F10).
 */
const build = () => {
  const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
  open.push(h);
  h.session({ id: 'gw', source: 'telegram' });
  h.message('gw', { role: 'session_meta', content: null });
  h.message('gw', { role: 'user', content: 'hi from telegram' });
  h.message('gw', { role: 'assistant', content: 'hello', finishReason: 'stop' });
  return h;
};

describe("a gateway transcript's session_meta header", () => {
  it('stays in the raw view and out of the display and active views, and --verify agrees', async () => {
    const h = build();
    const store = createMemoryStore();
    expect((await importHermes(store, { path: h.path })).skipped).toEqual([]);
    for (const view of ['display', 'active'] as const) {
      const shown = await loadConversation(store, 'gw', { view });
      expect([view, shown.messages.map((m) => m.content)]).toEqual([view, ['hi from telegram', 'hello']]);
    }
    const raw = (await readWholeStream(store, sessionStream('gw'))).filter((e) => e.type === 'message.appended');
    expect(((raw[0]!.data as JsonObject).extra as { hermes: JsonObject }).hermes.role).toBe('session_meta');
    expect((await verifyHermes(store, h.path)).differences).toEqual([]);
  });

  it('a ledger that imported it before, as a shown message, gets it taken out on the next import', async () => {
    const h = build();
    const now = createMemoryStore();
    await importHermes(now, { path: h.path });
    const before = await importedBefore(now, 'session-meta');
    expect((await loadConversation(before, 'gw', { view: 'active' })).messages).toHaveLength(3);
    const report = await importHermes(before, { path: h.path });
    expect([report.skipped, report.events]).toEqual([[], 1]);
    expect((await loadConversation(before, 'gw', { view: 'active' })).messages.map((m) => m.content)).toEqual(['hi from telegram', 'hello']);
    const again = await importHermes(before, { path: h.path });
    expect([again.events, again.skipped]).toEqual([0, []]);
  });
});
