import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, readWholeStream } from '@session-ledger/core';
import { activeView, foldConversation } from '@session-ledger/projections';
import { decodeSessionEvents, sessionStream } from '@session-ledger/events';
import { activeHistory, importHermes, readSnapshot, verifyHermes } from '@session-ledger/import-hermes';
import type { HermesFixture } from './fixtures/hermesDb.js';
import { createHermesDb } from './fixtures/hermesDb.js';
import { buildCurrentEra, buildV2Era, tempDir } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

const build = (fn: (path: string) => HermesFixture) => {
  const h = fn(join(tempDir(), 'state.db'));
  open.push(h);
  return h;
};

describe('--verify: display history of every conversation, source against ledger', () => {
  it('finds no difference after importing a current-era file and a version-2 file', async () => {
    for (const h of [build(buildCurrentEra), build(buildV2Era)]) {
      const store = createMemoryStore();
      await importHermes(store, { path: h.path });
      const report = await verifyHermes(store, h.path);
      expect(report.differences).toEqual([]);
      expect(report.matched).toBe(report.conversations);
    }
  });

  it('reports a conversation missing from the ledger and one whose content differs', async () => {
    const h = build(buildCurrentEra);
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    const ledger = createLedger(store);
    const events = await readWholeStream(store, sessionStream('rewound'));
    const first = readSnapshot(h.path).messages.get('rewound')![0]!.rowId;
    await ledger.append(
      sessionStream('rewound'),
      [{ id: newId(), type: 'message.rewritten', data: { messageId: `hm-${first}`, content: 'edited', rewrittenAt: new Date().toISOString() } }],
      { expectedRevision: events.at(-1)!.revision },
    );
    h.session({ id: 'later' });
    h.message('later', { role: 'user', content: 'not imported yet' });
    const report = await verifyHermes(store, h.path);
    expect(report.differences.map((d) => [d.conversation, d.kind])).toEqual(
      expect.arrayContaining([
        ['later', 'missing'],
        ['rewound', 'messages'],
      ]),
    );
  });

  it('rebuilds the active view as Hermes has it: summaries in place, carried rows once, rewound rows gone', async () => {
    const h = build(buildCurrentEra);
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    const snap = readSnapshot(h.path);
    for (const id of ['inplace', 'rewound']) {
      const records = decodeSessionEvents(await readWholeStream(store, sessionStream(id)));
      const active = activeView(foldConversation(records)).messages.map((m) => m.content);
      expect(active).toEqual(activeHistory(snap.messages.get(id)!).map((m) => m.content));
    }
  });

  it('keeps legacy carried-over copies once in display and active', async () => {
    const h = build((path) => {
      const f = createHermesDb(path, 'current');
      f.session({ id: 's' });
      f.turns('s', 3);
      f.compactInPlace('s', 'legacy summary', 2, true);
      f.turns('s', 1, 'after');
      return f;
    });
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });
    expect((await verifyHermes(store, h.path)).differences).toEqual([]);
    const records = decodeSessionEvents(await readWholeStream(store, sessionStream('s')));
    const active = activeView(foldConversation(records)).messages.map((m) => m.content);
    expect(active).toEqual(activeHistory(readSnapshot(h.path).messages.get('s')!).map((m) => m.content));
  });
});
