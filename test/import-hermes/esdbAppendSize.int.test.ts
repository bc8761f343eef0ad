import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { importHermes } from '@session-ledger/import-hermes';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer, type EsdbTestServer } from '../esdb-server/index.js';
import { buildLarge, tempDir } from './fixtures/scenarios.js';

const servers: EsdbTestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/**
 * EventStoreDB refuses an append over its MaxAppendSize (1 MiB by default; the double too). The import
 * appended 1,000 events at a time whatever their size: a session of ordinary 2 KiB messages could
 * not be imported into a default server (outside review, session 27).
 */
describe('import hermes into EventStoreDB: a session larger than one append may carry', () => {
  it('imports every message, in appends under the server limit', async () => {
    const dir = tempDir();
    const hermes = buildLarge(join(dir, 'state.db'), 900);
    hermes.db.prepare("UPDATE messages SET content = content || ' ' || ? WHERE role = 'user'").run('x'.repeat(4096));
    hermes.close();
    const server = await startEsdbTestServer();
    servers.push(server);
    const store = openEventStoreDbStore(server.url);
    try {
      const report = await importHermes(store, { path: hermes.path });
      expect([report.sessions, report.messages, report.skipped]).toEqual([1, 900, []]);
      const events = await store.readStream(sessionStream('large'));
      expect(events.filter((event) => event.type === 'message.appended')).toHaveLength(900);
      expect((await createLedger(store).verify()).broken).toBeNull();
    } finally {
      await store.close();
    }
  });
});
