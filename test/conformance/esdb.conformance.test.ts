import { afterAll } from 'vitest';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer, type EsdbTestServer, type EsdbTestServerOptions } from '../esdb-server/index.js';
import { describeEventStoreConformance } from './eventStoreConformance.js';

/**
 * The suite through the real @eventstore/db-client. By default against the gRPC test double in
 * test/esdb-server (one server, a new client per test), which does not list server features, so
 * the client appends through Streams.Append (the BatchAppend path a 21.10+ server selects is
 * covered by test/esdb/clientPaths.int.test.ts; set SESSION_LEDGER_TEST_ESDB_BATCH=1 to run the
 * whole suite on it too). With SESSION_LEDGER_TEST_ESDB=esdb://host:2113?tls=false it runs
 * against that server instead. Both keep a deleted stream's events in `$all` until a scavenge (the
 * double scavenges when asked, as Operations.StartScavenge asks a server).
 */
const external = process.env.SESSION_LEDGER_TEST_ESDB;
const servers: Array<Promise<EsdbTestServer>> = [];

afterAll(async () => {
  for (const server of servers) await (await server).close();
});

const suite = (name: string, options: EsdbTestServerOptions) => {
  let server: Promise<EsdbTestServer> | undefined;
  describeEventStoreConformance(name, async () => {
    if (!server) servers.push((server = startEsdbTestServer(options)));
    const running = await server;
    const store = openEventStoreDbStore(running.url);
    return { store, cleanup: () => store.close(), scavenge: () => running.scavenge() };
  }, { deletedEventsInAll: 'until-scavenge', scavenge: true });
};

if (external) {
  describeEventStoreConformance(`eventstoredb (${external})`, async () => {
    const store = openEventStoreDbStore(external);
    return { store, cleanup: () => store.close() };
  }, { deletedEventsInAll: 'until-scavenge', scavenge: false }); // a real server scavenges in the background
} else {
  suite('eventstoredb (test double, real client, Streams.Append)', {});
  if (process.env.SESSION_LEDGER_TEST_ESDB_BATCH) {
    suite('eventstoredb (test double, real client, Streams.BatchAppend)', { serverFeatures: true });
  }
}
