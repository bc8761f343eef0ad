import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { buildBulk } from './fixtures/bulk.js';
import { buildCurrentEra, tempDir, writeMemories } from './fixtures/scenarios.js';

/** What the CLI stored, but the clock readings: events (chain hashes in their metadata), the log's leaves, and the read models. */
const stored = (path: string) => {
  const db = new Database(path, { readonly: true });
  const all = (sql: string) => db.prepare(sql).raw(true).all();
  try {
    return {
      events: all('SELECT position, stream, revision, id, type, data, metadata FROM events ORDER BY position'),
      leaves: all('SELECT leaf_index, position, stream, revision, deletion FROM log_leaves ORDER BY leaf_index'),
      readModels: all('SELECT name, version, position, status, error FROM read_models ORDER BY name'),
      catalog: all('SELECT * FROM catalog ORDER BY 1'),
      catalogSegments: all('SELECT * FROM catalog_segments ORDER BY 1'),
      searchSegments: all('SELECT * FROM search_segments ORDER BY 1'),
      searchMessages: all('SELECT * FROM search_messages ORDER BY id'),
      searchText: all('SELECT rowid, body, tools FROM search_text ORDER BY rowid'),
    };
  } finally {
    db.close();
  }
};

/** `import hermes` of one source into a new ledger per `--threads` value: the JSON reports and what each stored. */
const importBoth = (dir: string, source: string, extra: string[] = []) =>
  (['1', '2'] as const).map((threads) => {
    const ledger = join(dir, `ledger-${threads}.sqlite`);
    const run = runCli(['import', 'hermes', source, '--threads', threads, '--verify', '--json', ...extra], { env: { SESSION_LEDGER_STORE: `sqlite:${ledger}` } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The read models (deferred: brought up by their next read) answer the same.
    const env = { env: { SESSION_LEDGER_STORE: `sqlite:${ledger}` } };
    const answers = [runCli(['sessions', 'list', '--json'], env).stdout, runCli(['sessions', 'search', 'lorem', '--json'], env).stdout];
    return { report: run.json() as Record<string, unknown>, answers, stored: stored(ledger) };
  });

describe('import hermes --threads', () => {
  it('--threads 2 (the append on a second thread) stores, indexes, reports and verifies exactly as --threads 1', () => {
    const dir = tempDir('hermes-split-cli');
    const bulk = join(dir, 'bulk.db');
    buildBulk(bulk, { conversations: 9, messages: 200, contentSize: 200 });
    const current = join(dir, 'current.db');
    buildCurrentEra(current).close();
    const memories = writeMemories(join(dir, 'memories'), ['Prefers short answers'], ['Lives in Zürich']);
    for (const [index, source] of [bulk, current].entries()) {
      const [one, two] = importBoth(join(dir, `${index}-`), source, index === 1 ? ['--memories', memories] : []);
      expect(one!.stored.events.length).toBeGreaterThan(0);
      expect(one!.stored.catalog.length).toBeGreaterThan(0);
      expect(two!.stored).toEqual(one!.stored);
      expect(two!.answers).toEqual(one!.answers);
      expect(two!.report).toEqual(one!.report);
    }
  });

  it('refuses a --threads other than 1 or 2 with one line and exit 2, writing nothing', () => {
    const dir = tempDir('hermes-split-cli');
    const source = join(dir, 'state.db');
    buildBulk(source, { conversations: 1, messages: 4, contentSize: 4 });
    const ledger = join(dir, 'ledger.sqlite');
    for (const value of ['0', '3', 'two']) {
      const run = runCli(['import', 'hermes', source, '--threads', value], { env: { SESSION_LEDGER_STORE: `sqlite:${ledger}` } });
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('--threads must be 1 or 2');
    }
  });
});
