import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStreamState, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { importHermes } from '@session-ledger/import-hermes';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { createHermesDb, type HermesFixture } from './fixtures/hermesDb.js';
import { tempDir } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
const stores: EventStore[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) h.close();
  for (const s of stores.splice(0)) await s.close();
});

/**
 * Hermes writes JSON columns with Python's json.dumps, which escapes a lone surrogate as "\udcff";
 * parsed, it is a string no store can keep as is. Repairing it (U+FFFD) would store a message Hermes
 * never held, so the import refuses that session, whole, naming it and the row, and imports the rest.
 */
describe('a Hermes row holding a lone surrogate', () => {
  it('refuses its session (nothing of it written, even batch by batch), names session and row, and imports the others', async () => {
    const dir = tempDir();
    const h = createHermesDb(join(dir, 'state.db'), 'current');
    open.push(h);
    h.session({ id: 'good', title: 'fine' });
    h.message('good', { role: 'user', content: 'hello' });
    h.session({ id: 'bad', title: 'poisoned' });
    h.message('bad', { role: 'user', content: 'first, fine' });
    h.message('bad', { role: 'assistant', content: 'second, fine' });
    const row = h.message('bad', { role: 'assistant', content: null, toolCalls: [{ id: 'c1', function: { name: 'grep', arguments: '{"q":"\udcff"}' } }] });
    const store = openSqliteStore(join(dir, 'ledger.sqlite'));
    stores.push(store);

    const report = await importHermes(store, { path: h.path, batchSize: 1 });

    const skipped = report.skipped.find((item) => item.session === 'bad');
    expect(skipped?.reason).toContain(`Hermes session bad, message row ${row}`);
    expect(skipped?.reason).toContain('not well-formed UTF-16 (a lone surrogate)');
    expect((await readStreamState(store, sessionStream('bad'))).state).toBe('absent');
    expect((await readStreamState(store, sessionStream('good'))).state).toBe('live');
  });
});
