import { createRequire } from 'node:module';
import { credentials, type Client } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import type * as OperationsPb from '@eventstore/db-client/generated/operations_pb.js';
import { connect, events, unique } from './helpers.js';

const require = createRequire(import.meta.url);
const operations = require('@eventstore/db-client/generated/operations_pb.js') as typeof OperationsPb;
type OperationsClient = Client & {
  startScavenge(request: OperationsPb.StartScavengeReq, callback: (error: Error | null, response: OperationsPb.ScavengeResp) => void): void;
};
const { OperationsClient } = require('@eventstore/db-client/generated/operations_grpc_pb.js') as {
  OperationsClient: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => OperationsClient;
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The admin operation a real server has: Operations.StartScavenge, sent as an operator's tool sends it. */
const startScavenge = (address: string) =>
  new Promise<OperationsPb.ScavengeResp>((resolve, reject) => {
    const client = new OperationsClient(address, credentials.createInsecure());
    const request = new operations.StartScavengeReq().setOptions(new operations.StartScavengeReq.Options().setThreadCount(1).setStartFromChunk(0));
    client.startScavenge(request, (error, response) => {
      client.close();
      if (error) reject(error);
      else resolve(response);
    });
  });

describe('the test double keeps deleted events in $all until a scavenge', () => {
  it('a deleted and a tombstoned stream stay in $all; Operations.StartScavenge answers Started and removes them', async () => {
    const { server, store, close } = await connect();
    closers.push(close);
    const [gone, erased, kept] = [unique('gone'), unique('erased'), unique('kept')];
    await store.appendToStream(gone, events(2));
    await store.appendToStream(erased, events(1));
    await store.appendToStream(kept, events(1));
    await store.deleteStream(gone);
    await store.tombstoneStream(erased);
    const streamsInAll = async () => (await store.readAll()).map((event) => event.streamName);
    expect(await streamsInAll()).toEqual([gone, gone, erased, kept]);

    const response = await startScavenge(`${server.host}:${server.port}`);
    expect(response.getScavengeResult()).toBe(operations.ScavengeResp.ScavengeResult.STARTED);
    expect(response.getScavengeId()).not.toBe('');
    expect(await streamsInAll()).toEqual([kept]);
    await expect(store.readStream(erased)).rejects.toMatchObject({ type: 'stream_deleted' });
  });

  it('with deletedEventsInAll: erased, deleted events leave $all at once (as SQLite)', async () => {
    const { store, close } = await connect({ deletedEventsInAll: 'erased' });
    closers.push(close);
    const [gone, kept] = [unique('gone'), unique('kept')];
    await store.appendToStream(gone, events(2));
    await store.appendToStream(kept, events(1));
    await store.tombstoneStream(gone);
    expect((await store.readAll()).map((event) => event.streamName)).toEqual([kept]);
  });
});
