import { afterAll, describe, expect, it } from 'vitest';
import { createLedger, newId } from '@session-ledger/core';
import { migrateStores } from '@session-ledger/migrate';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer } from '../esdb-server/index.js';
import { sqliteAt, tempDir } from './fixture.js';

const dir = tempDir();
afterAll(() => dir.remove());

/**
 * A SQLite ledger written before the raw surfaces refused `$` names may hold streams or event types
 * EventStoreDB keeps for its own: copied there they would be lost on the way back (its `$all` readers
 * skip them) while the copy said ok. They are reported, not copied; the rest is copied.
 */
describe('migrate of names beginning with $', () => {
  const source = async () => {
    const from = sqliteAt(dir.path(`${newId()}.sqlite`));
    const ledger = createLedger(from);
    await ledger.append('chat', [{ id: newId(), type: 'said', data: { n: 1 } }]);
    await ledger.append('$$legacy', [{ id: newId(), type: 'said', data: { n: 2 } }]);
    await ledger.append('notes', [{ id: newId(), type: '$legacy-type', data: { n: 3 } }]);
    return from;
  };

  it('to EventStoreDB: reported as mismatches naming the stream or the type, and the rest copied', async () => {
    const from = await source();
    const server = await startEsdbTestServer();
    const to = openEventStoreDbStore(server.url);
    try {
      const summary = await migrateStores({ from, to });
      expect(summary.ok).toBe(false);
      expect(summary.mismatches.map(({ stream, source: given }) => `${stream}: ${given}`).sort()).toEqual(['$$legacy: stream $$legacy', 'notes: event type $legacy-type']);
      expect((await to.readStream('chat')).map((event) => event.data)).toEqual([{ n: 1 }]);
    } finally {
      await from.close();
      await to.close();
      await server.close();
    }
  });

  it('to SQLite: copied like any other stream', async () => {
    const from = await source();
    const to = sqliteAt(dir.path(`${newId()}.sqlite`));
    const summary = await migrateStores({ from, to });
    expect(summary).toMatchObject({ ok: true, mismatches: [] });
    expect((await to.readStream('$$legacy')).map((event) => event.data)).toEqual([{ n: 2 }]);
    await from.close();
    await to.close();
  });
});
