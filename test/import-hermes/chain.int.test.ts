import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@session-ledger/core';
import { loadConversation } from '@session-ledger/sessions';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import { createHermesDb } from './fixtures/hermesDb.js';
import { tempDir } from './fixtures/scenarios.js';

const CHAIN = ['20260424_143733_1abb38', '20260424_144905_134d65', '20260424_145134_bba836', '20260424_145312_a3c90c', '20260424_145830_389a35', '20260424_153153_efc612'];

describe('a compression chain whose rows all landed in one descendant (seed report 002)', () => {
  it('resumes the whole transcript from the original id, the holder and the last segment', async () => {
    const path = join(tempDir(), 'state.db');
    const h = createHermesDb(path, 'v2');
    h.session({ id: CHAIN[0]! });
    for (let i = 1; i < CHAIN.length; i += 1) {
      h.end(CHAIN[i - 1]!, 'compression');
      h.session({ id: CHAIN[i]!, parentId: CHAIN[i - 1]! });
      if (i === 4) h.turns(CHAIN[i]!, 30);
    }
    h.end(CHAIN[5]!, 'compression');
    h.close();
    const store = createMemoryStore();
    const report = await importHermes(store, { path });
    expect(report).toMatchObject({ sessions: 6, segments: 5, messages: 120, skipped: [] });
    for (const id of [CHAIN[0]!, CHAIN[4]!, CHAIN[5]!]) {
      const view = await loadConversation(store, id);
      expect(view.rootId).toBe(CHAIN[0]);
      expect(view.messages).toHaveLength(120);
    }
    expect((await verifyHermes(store, path)).differences).toEqual([]);
  });
});
