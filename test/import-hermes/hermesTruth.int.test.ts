import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, readWholeStream, streamNames, type JsonObject } from '@session-ledger/core';
import { createHermesDb } from './fixtures/hermesDb.js';
import { tempDir } from './fixtures/scenarios.js';
import {
  compareWithHermes,
  createHermesReader,
  fromHermes,
  hermesViews,
  importHermes,
  readSnapshot,
  verifyHermes,
  type HermesConversationViews,
} from '@session-ledger/import-hermes';

/**
 * The importer against Hermes itself. Each fixtures/hermes/v<N>/state.db was written by Hermes Agent's
 * own code at a schema-N commit; hermes-views-read-by-v26.json holds what the newest Hermes here (schema
 * 26) returns for each conversation of that file: its display history and the history it sends the
 * model on resume (fixtures/generate/README.md). Per conversation the ledger's display and active views
 * must equal them, under the normalisation in packages/import-hermes/README.md ("Compared with Hermes").
 */
interface Views {
  conversations: Record<string, HermesConversationViews & { resumeTarget: string }>;
}

const ROOT = join(import.meta.dirname, 'fixtures', 'hermes');
const versions = readdirSync(ROOT).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
const READ_BY = 'hermes-views-read-by-v26.json';

/**
 * Where the ledger deliberately differs (packages/import-hermes/README.md, "Compared with Hermes"):
 * - v23 race: the race's stale writer flushed its turn into the parent after that parent was continued
 *   by compression. Hermes reads the lineage in row-id order, so it shows those rows after the
 *   continuation's; the ledger keeps them in the segment they were written to, before the compression.
 *   Same messages, same count, same active view.
 * - v26 gw-after: from schema 26 a gateway reset links the new session to the one it reset
 *   (`_reset_from`). Resuming the old one never reaches the new one, but Hermes' display of the new one
 *   walks parent pointers and shows the old conversation above it; the ledger keeps a reset a
 *   conversation of its own (its active view, what the model is sent, is the same as Hermes').
 * `--verify` reports both.
 */
const KNOWN: Record<string, RegExp> = {
  'v23/race': /#9 \(Hermes 20, ledger 20 messages\): Hermes \{"content":"race question 0: .* \/ ledger \{"content":"race-live-child question 0: /,
};
const expected = (key: string) => {
  const display = KNOWN[key];
  return display ? { display: expect.stringMatching(new RegExp(`^${display.source}`)) as unknown as string, active: null } : { display: null, active: null };
};

describe.each(versions)('a state.db written by Hermes at schema %s', (version) => {
  const views = JSON.parse(readFileSync(join(ROOT, version, READ_BY), 'utf8')) as Views;
  const store = createMemoryStore();
  const imported = importHermes(store, { path: join(ROOT, version, 'state.db') });

  it.each(Object.keys(views.conversations))('%s: the ledger shows and resumes what Hermes does', async (name) => {
    const report = await imported;
    expect(report.skipped).toEqual([]);
    expect(await compareWithHermes(store, views.conversations[name]!)).toEqual(expected(`${version}/${name}`));
  });
});

describe.each(versions)('--verify\'s port of Hermes\' read rules, on the file written at schema %s', (version) => {
  const views = JSON.parse(readFileSync(join(ROOT, version, READ_BY), 'utf8')) as Views;
  const reader = createHermesReader(readSnapshot(join(ROOT, version, 'state.db')));

  it.each(Object.keys(views.conversations))('%s: resumes, shows and sends what Hermes does', (name) => {
    const hermes = views.conversations[name]!;
    const port = hermesViews(reader, hermes.root);
    expect(port.resumeTarget).toBe(hermes.resumeTarget);
    expect(port.display).toEqual(hermes.display.map(fromHermes));
    expect(port.model).toEqual(hermes.model.map(fromHermes));
  });
});

describe.each(versions)('--verify on the file written at schema %s', (version) => {
  it('finds no difference after the import but the known one, rows and Hermes views alike', async () => {
    const path = join(ROOT, version, 'state.db');
    const store = createMemoryStore();
    await importHermes(store, { path });
    const report = await verifyHermes(store, path);
    expect(report.hermesRules).toBe(true);
    const known = Object.entries(KNOWN).filter(([key]) => key.startsWith(`${version}/`));
    expect(report.differences).toEqual(known.map(([key, display]) => ({
      conversation: key.slice(version.length + 1),
      kind: 'display',
      detail: expect.stringMatching(new RegExp(`^Hermes shows other messages: ${display.source}`)) as unknown as string,
    })));
    const again = await importHermes(store, { path });
    expect([again.events, again.skipped]).toEqual([0, []]);
  });
});

describe('nothing Hermes stored is lost by reading it as Hermes does', () => {
  it('keeps every stored content: as the content, or beside it (stored text, parts), for messages and summary rows', async () => {
    // And a schema-30 file whose flagged summary rows Hermes' read would trim.
    const current = join(tempDir(), 'state.db');
    const h = createHermesDb(current, 'current');
    h.session({ id: 's' });
    h.turns('s', 3);
    h.compactInPlace('s', '  [CONTEXT COMPACTION] padded summary \n', 2);
    h.compress('s', 's2', '\t[CONTEXT COMPACTION] padded compression summary  ');
    h.turns('s2', 1);
    h.close();
    for (const [version, path] of [...versions.map((v) => [v, join(ROOT, v, 'state.db')] as const), ['v30', current] as const]) {
      const store = createMemoryStore();
      await importHermes(store, { path });
      const stored = new Map<string, string | null>();
      for (const rows of readSnapshot(path).messages.values()) for (const row of rows) stored.set(`hm-${row.rowId}`, row.content);
      const kept = new Map<string, string | null>();
      const copies = new Map<string, string>();
      for (const name of await streamNames(store)) {
        for (const event of await readWholeStream(store, name)) {
          const data = event.data as JsonObject;
          const hermes = ((data.extra as JsonObject | undefined)?.hermes ?? {}) as JsonObject;
          if (event.type === 'message.appended') {
            kept.set(String(data.messageId), 'storedContent' in hermes ? (hermes.storedContent as string | null) : (data.content as string | null));
          }
          const meta = ((event.metadata as JsonObject).hermes ?? {}) as JsonObject;
          // A carried copy is recorded beside the message it copies (same content by Hermes' identity).
          for (const copy of (meta.copies ?? []) as JsonObject[]) copies.set(`hm-${String(copy.rowId)}`, String(copy.of));
          const summaryRow = meta.summaryRow as JsonObject | undefined;
          if (summaryRow && typeof data.summaryId === 'string' && !kept.has(data.summaryId)) {
            kept.set(data.summaryId, 'storedContent' in summaryRow ? (summaryRow.storedContent as string | null) : (data.summary as string));
          }
        }
      }
      for (const [copy, of] of copies) kept.set(copy, kept.get(of) ?? null);
      for (const [id, content] of stored) expect([version, id, kept.get(id)]).toEqual([version, id, content]);
    }
  });
});
