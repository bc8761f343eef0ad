import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@session-ledger/core';
import { compareWithHermes, importHermes, verifyHermes, type HermesConversationViews } from '@session-ledger/import-hermes';

/**
 * The importer following a state.db while Hermes' own code rewrites transcripts (fixtures/hermes-replace,
 * written by Hermes e89532d: gateway `/retry` twice, a pre-#80216 destructive `/retry`, a `/retry`
 * after an in-place compaction, `/retry` in a compression segment, a TUI edit with `archive_dropped`,
 * and an untouched control). The
 * ledger imports step 1, then step 2, then step 3 of the same file; after each, every conversation
 * must show and resume what Hermes' own read APIs return for that step, and `--verify` must agree.
 * Before, every rewritten conversation was skipped from step 2 on (outside test, session 27, F9).
 */
const ROOT = join(import.meta.dirname, 'fixtures', 'hermes-replace');
type Step = { conversations: Record<string, HermesConversationViews> };
const views = JSON.parse(readFileSync(join(ROOT, 'hermes-views.json'), 'utf8')) as Record<'step1' | 'step2' | 'step3', Step>;

describe('following a file whose transcripts Hermes rewrote', () => {
  it('after each step the ledger shows and resumes what Hermes does, and a repeated run writes nothing', async () => {
    const store = createMemoryStore();
    for (const step of ['step1', 'step2', 'step3'] as const) {
      const path = join(ROOT, `${step}.db`);
      const report = await importHermes(store, { path });
      expect([step, report.skipped]).toEqual([step, []]);
      for (const [name, hermes] of Object.entries(views[step].conversations)) {
        expect([step, name, await compareWithHermes(store, hermes)]).toEqual([step, name, { display: null, active: null }]);
      }
      expect([step, (await verifyHermes(store, path)).differences]).toEqual([step, []]);
      const again = await importHermes(store, { path });
      expect([step, again.events, again.skipped]).toEqual([step, 0, []]);
    }
  });
});
