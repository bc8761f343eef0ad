import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@session-ledger/core';
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
 * own code at a schema-N commit; hermes-views-read-by-v21.json holds what the newest Hermes here (schema
 * 21) returns for each conversation of that file: its display history and the history it sends the
 * model on resume (fixtures/generate/README.md). Per conversation the ledger's display and active views
 * must equal them, under the normalisation in packages/import-hermes/README.md ("Compared with Hermes").
 */
interface Views {
  conversations: Record<string, HermesConversationViews & { resumeTarget: string }>;
}

const ROOT = join(import.meta.dirname, 'fixtures', 'hermes');
const versions = readdirSync(ROOT).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));

describe.each(versions)('a state.db written by Hermes at schema %s', (version) => {
  const views = JSON.parse(readFileSync(join(ROOT, version, 'hermes-views-read-by-v21.json'), 'utf8')) as Views;
  const store = createMemoryStore();
  const imported = importHermes(store, { path: join(ROOT, version, 'state.db') });

  it.each(Object.keys(views.conversations))('%s: the ledger shows and resumes what Hermes does', async (name) => {
    const report = await imported;
    expect(report.skipped).toEqual([]);
    expect(await compareWithHermes(store, views.conversations[name]!)).toEqual({ display: null, active: null });
  });
});

describe.each(versions)('--verify\'s port of Hermes\' read rules, on the file written at schema %s', (version) => {
  const views = JSON.parse(readFileSync(join(ROOT, version, 'hermes-views-read-by-v21.json'), 'utf8')) as Views;
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
  it('finds no difference after the import, rows and Hermes views alike', async () => {
    const path = join(ROOT, version, 'state.db');
    const store = createMemoryStore();
    await importHermes(store, { path });
    const report = await verifyHermes(store, path);
    expect(report.hermesRules).toBe(true);
    expect(report.differences).toEqual([]);
  });
});
