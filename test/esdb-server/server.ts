import { Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { createMemoryStore, type DeletedEventsInAll, type EventStore } from '@session-ledger/core';
import { appendHandler, batchAppendHandler } from './append.js';
import { featuresHandler, gossipHandler } from './cluster.js';
import { GossipService, OperationsService, ServerFeaturesService, StreamsService } from './pb.js';
import { readHandler } from './read.js';
import { deleteHandler, tombstoneHandler } from './remove.js';
import { startScavengeHandler } from './scavenge.js';

export interface EsdbTestServerOptions {
  /** The backing store; a fresh in-memory store by default. */
  store?: EventStore;
  /**
   * What `$all` holds after a delete, for the default store: 'until-scavenge' (default), as the
   * server: a deleted stream's events stay in `$all` reads and catch-up subscriptions until a
   * scavenge (`scavenge()`, or the Operations.StartScavenge call); 'erased': they leave at once.
   */
  deletedEventsInAll?: DeletedEventsInAll;
  host?: string;
  /** 0 (default): a free port. */
  port?: number;
  /**
   * false (default): ServerFeatures is not served, so the client falls back to Streams.Append,
   * as against a 20.x server. true: it lists Streams.BatchAppend, as a 21.10+ server does, and
   * the client appends through BatchAppend.
   */
  serverFeatures?: boolean;
  /** Wire position = store position × stride (default 16): most numbers are not record starts. */
  stride?: bigint;
  /** Write a few `$`-prefixed system events first, as a fresh server has (default true). */
  systemEvents?: boolean;
  /**
   * The checkpoint a filtered `$all` subscription gets as its catch-up ends: 'last-event' (default)
   * names the last event it considered; 'end-of-log' is (where the next record will start, prepare 0),
   * as KurrentDB 24.10.0-24.10.4 and 25.0.0 send after an empty last page (kurrent-io/KurrentDB#4970,
   * fixed by #4975): the next append lands at that commit position.
   */
  catchUpCheckpoint?: 'last-event' | 'end-of-log';
  /** The most bytes (data, metadata and type) one append may carry; default 1 MiB, the server's MaxAppendSize default. */
  maxAppendSize?: number;
}

export interface EsdbTestServer {
  /** `esdb://host:port?tls=false` */
  url: string;
  host: string;
  port: number;
  store: EventStore;
  /** Runs a scavenge (as Operations.StartScavenge does) and returns how many events left `$all`. */
  scavenge(): Promise<number>;
  close(): Promise<void>;
}

const seedSystemEvents = async (store: EventStore) => {
  await store.appendToStream('$settings', [
    { id: '00000000-0000-4000-8000-000000000001', type: '$settings', data: { $userStreamAcl: { $r: '$all' } } },
  ]);
  await store.appendToStream('$users', [{ id: '00000000-0000-4000-8000-000000000002', type: '$User', data: { loginName: 'admin' } }]);
};

/**
 * A TEST DOUBLE of EventStoreDB's gRPC protocol (Streams, Gossip, optionally ServerFeatures),
 * built from the client package's own generated service definitions and backed by an EventStore
 * (the in-memory store by default). It is not EventStoreDB; see README.md for what it mimics.
 */
export const startEsdbTestServer = async (options: EsdbTestServerOptions = {}): Promise<EsdbTestServer> => {
  const store = options.store ?? createMemoryStore({ name: 'esdb-test-double', deletedEventsInAll: options.deletedEventsInAll ?? 'until-scavenge' });
  const scavenge = async () => ('scavenge' in store && typeof store.scavenge === 'function' ? (store.scavenge as () => Promise<number>)() : 0);
  const host = options.host ?? '127.0.0.1';
  const layout = { stride: options.stride ?? 16n, catchUpCheckpoint: options.catchUpCheckpoint ?? 'last-event', maxAppendSize: options.maxAppendSize ?? 1024 * 1024 };
  if (options.systemEvents ?? true) await seedSystemEvents(store);
  const server = new Server();
  let port = 0;
  server.addService(StreamsService, {
    read: readHandler(store, layout),
    append: appendHandler(store, layout),
    delete: deleteHandler(store, layout),
    tombstone: tombstoneHandler(store, layout),
    batchAppend: batchAppendHandler(store, layout),
  } as UntypedServiceImplementation);
  server.addService(OperationsService, { startScavenge: startScavengeHandler(scavenge) } as UntypedServiceImplementation);
  server.addService(GossipService, { read: gossipHandler(host, () => port) } as UntypedServiceImplementation);
  if (options.serverFeatures) {
    server.addService(ServerFeaturesService, { getSupportedMethods: featuresHandler('24.10.0') } as UntypedServiceImplementation);
  }
  port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${options.port ?? 0}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    url: `esdb://${host}:${port}?tls=false`,
    host,
    port,
    store,
    scavenge,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        // Open subscriptions never end by themselves: after a grace period, cut them.
        setTimeout(() => server.forceShutdown(), 200).unref();
      }),
  };
};
