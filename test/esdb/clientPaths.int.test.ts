import { describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer } from '../esdb-server/index.js';
import { connect, events, unique } from './helpers.js';

describe('the client paths a real server selects', () => {
  it('appends through BatchAppend when the server lists it, with the same conflicts and idempotency', async () => {
    const env = await connect({ serverFeatures: true });
    try {
      const stream = unique('batch');
      const batch = events(3);
      const first = await env.store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      expect(first.nextExpectedRevision).toBe(2n);
      const retried = await env.store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      expect(retried.nextExpectedRevision).toBe(2n);
      expect(await env.store.readStream(stream)).toHaveLength(3);
      await expect(env.store.appendToStream(stream, events(1), { expectedRevision: 7n })).rejects.toMatchObject({
        type: 'wrong_expected_version',
        details: { stream, expected: '7', actual: '2' },
      });
      await env.store.tombstoneStream(stream);
      await expect(env.store.appendToStream(stream, events(1))).rejects.toMatchObject({ type: 'stream_deleted', details: { stream } });
      const ledger = createLedger(env.store);
      await ledger.append(unique('chain'), events(2));
      expect((await ledger.verify()).broken).toBeNull();
    } finally {
      await env.close();
    }
  });

  it.each([
    ['esdb+discover', 'esdb+discover://HOST?tls=false'],
    ['kurrentdb', 'kurrentdb://HOST?tls=false'],
    ['kurrentdb+discover', 'kurrentdb+discover://HOST?tls=false'],
  ])('connects with a %s URL', async (_scheme, template) => {
    const server = await startEsdbTestServer();
    const store = openEventStoreDbStore(template.replace('HOST', `${server.host}:${server.port}`));
    try {
      const stream = unique('url');
      await store.appendToStream(stream, events(1));
      expect(await store.readStream(stream)).toHaveLength(1);
    } finally {
      await store.close();
      await server.close();
    }
  });
});
