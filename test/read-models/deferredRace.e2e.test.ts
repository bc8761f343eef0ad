import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_MODELS, attachReadModels, inlineReadModels, openSearch } from '@session-ledger/read-models';
import { listConversations } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { allRows, scratchDir } from './support.js';

const RACER = fileURLToPath(new URL('./fixtures/deferredRace.mjs', import.meta.url));

const run = (args: string[]) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [RACER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });

describe('deferred read models under racing processes', { timeout: 180_000 }, () => {
  it('Given 3 writers (no ids, no expected revision) and 2 readers catching the models up at once, Then every acknowledged message is listed and found once', async () => {
    const file = join(scratchDir(), 'ledger.sqlite');
    const WRITES = 40;
    const outputs = await Promise.all([
      ...['w1', 'w2', 'w3'].map((name) => run([file, 'write', name, String(WRITES)])),
      run([file, 'read', '30']),
      run([file, 'read', '30']),
    ]);
    const acknowledged = outputs.slice(0, 3).map((out) => out.trim().split('\n'));
    expect(acknowledged.map((ids) => ids.length)).toEqual([WRITES, WRITES, WRITES]);

    const { hook, readModels } = inlineReadModels(DEFAULT_READ_MODELS);
    const store = attachReadModels(openSqliteStore(file, { onCommit: hook }), readModels);
    try {
      const now = new Date();
      const rows = allRows(await readModels.ready('catalog'), now, 50);
      expect(rows.map(({ source: _s, model: _m, firstActivity: _f, ...row }) => row)).toEqual(await listConversations(store, { now }));
      expect(rows.map((row) => [row.rootId, row.messages]).sort()).toEqual([['w1', WRITES], ['w2', WRITES], ['w3', WRITES]]);
      const search = await openSearch(store);
      for (const [w, ids] of acknowledged.entries()) {
        for (const [n, id] of ids.entries()) {
          const hits = search.search({ q: `token${['w1', 'w2', 'w3'][w]}n${n}z`, limit: 5 }).hits;
          expect(hits.map((hit) => hit.messageId)).toEqual([id]);
        }
      }
    } finally {
      await store.close();
    }
  });
});
