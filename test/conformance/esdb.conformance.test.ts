import { afterAll } from 'vitest';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer, type EsdbTestServer } from '../esdb-server/index.js';
import { describeEventStoreConformance } from './eventStoreConformance.js';

/**
 * The suite through the real @eventstore/db-client. By default against the gRPC test double in
 * test/esdb-server (one server for the file, a new client per test); with
 * SESSION_LEDGER_TEST_ESDB=esdb://host:2113?tls=false against that server instead.
 */
const external = process.env.SESSION_LEDGER_TEST_ESDB;
let server: Promise<EsdbTestServer> | undefined;
const urlOf = async () => external ?? (await (server ??= startEsdbTestServer())).url;

afterAll(async () => {
  await (await server)?.close();
});

describeEventStoreConformance(external ? `eventstoredb (${external})` : 'eventstoredb (test double, real client)', async () => {
  const store = openEventStoreDbStore(await urlOf());
  return { store, cleanup: () => store.close() };
});
