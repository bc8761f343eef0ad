import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, newId, type EventStore } from '@session-ledger/core';
import { createHttpService } from '@session-ledger/http';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempDir } from '../support/cli.js';

/**
 * GET /audit/verify swept logs under 65,536 leaves on the server's own thread: on a ledger of large
 * events one verify held /health for 12 s (outside test, session 27). It now always hands the leaf
 * pass to the store's worker threads.
 */
describe('GET /audit/verify off the server thread', () => {
  let server: Server | undefined;
  let store: EventStore | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await store?.close();
  });

  it('scans even a small log through the store\'s parallel scanner, and reports it whole', async () => {
    store = openSqliteStore(join(tempDir('verify-off-'), 'ledger.sqlite'));
    const ledger = createLedger(store);
    for (let n = 0; n < 20; n += 1) await ledger.append(`notes-${n % 3}`, [{ id: newId(), type: 'noted', data: { n } }]);
    const parallel = store.log!.parallel!;
    let scans = 0;
    const counted: EventStore = { ...store, log: { ...store.log!, parallel: { ...parallel, scan: (...args) => ((scans += 1), parallel.scan(...args)) } } };
    server = createHttpService({ ledger: createLedger(counted), store: counted, now: () => new Date(), settings: {}, host: '127.0.0.1' });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/audit/verify`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true });
    expect(scans).toBe(1);
  });
});
