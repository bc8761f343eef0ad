import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, newId, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { createMemoryLedger, providerCheckpoint, startMemoryFanOut } from '@session-ledger/memory';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer, type EsdbTestServer } from '../esdb-server/index.js';
import { recordingProvider, until } from '../memory/helpers.js';

/** The memory scenarios that depend on the store, on EventStoreDB through the real client. */
describe('memory ledger on EventStoreDB', () => {
  let server: EsdbTestServer;
  const clients: EventStore[] = [];
  const client = () => {
    const store = openEventStoreDbStore(server.url);
    clients.push(store);
    return store;
  };
  const profile = () => `p${newId().slice(0, 8)}`;
  const quiet = { onWarning: () => undefined };
  beforeAll(async () => {
    server = await startEsdbTestServer();
  });
  afterAll(async () => {
    for (const store of clients) await store.close();
    await server.close();
  });

  it('commits a batch as one append with receipts, and keeps memory when the causing session is tombstoned', async () => {
    const store = client();
    const name = profile();
    const sessionId = newId();
    await createLedger(store).append(sessionStream(sessionId), [{ id: newId(), type: 'session.started', data: {} }]);
    const memory = createMemoryLedger(store);
    const result = await memory.apply(
      [
        { op: 'add', target: 'memory', content: 'Uses the blue notebook' },
        { op: 'replace', target: 'memory', old: 'blue notebook', content: 'Uses the green notebook' },
      ],
      { profile: name, causation: { sessionId } },
    );
    expect(result.revision).toBe(1n);
    expect(result.receipts.map((r) => r.previousContent)).toEqual([null, 'Uses the blue notebook']);
    await store.tombstoneStream(sessionStream(sessionId));
    expect((await memory.list({ profile: name })).map((entry) => entry.content)).toEqual(['Uses the green notebook']);
    expect((await createLedger(store).verify()).broken).toBeNull();
  });

  it('two writers on two connections replacing different entries both commit with correct identities', async () => {
    const name = profile();
    const [a, b] = [client(), client()];
    const setup = await createMemoryLedger(a).apply(
      [
        { op: 'add', target: 'memory', content: 'Uses vim' },
        { op: 'add', target: 'memory', content: 'Deploys on Fridays' },
      ],
      { profile: name },
    );
    const [vim, fridays] = setup.receipts.map((r) => r.entryId);
    const [ra, rb] = await Promise.all([
      createMemoryLedger(a).replace('memory', 'vim', 'Uses neovim', { profile: name }),
      createMemoryLedger(b).replace('memory', 'Fridays', 'Deploys on Mondays', { profile: name }),
    ]);
    expect(ra.receipts[0]).toMatchObject({ entryId: vim, previousContent: 'Uses vim' });
    expect(rb.receipts[0]).toMatchObject({ entryId: fridays, previousContent: 'Deploys on Fridays' });
    expect(new Set([ra.revision, rb.revision])).toEqual(new Set([2n, 3n]));
    expect((await createMemoryLedger(b).list({ profile: name })).map((entry) => entry.content)).toEqual(['Uses neovim', 'Deploys on Mondays']);
  });

  it('fans committed mutations out in order, and a provider restarted on a new connection resumes after its checkpoint', async () => {
    const name = profile();
    const writer = client();
    const memory = createMemoryLedger(writer);
    for (const content of ['one', 'two', 'three']) await memory.add('memory', content, { profile: name });
    const providerName = `mirror${newId().slice(0, 8)}`;
    const mine = (contents: Array<{ content: string | null; profile?: string }>) => contents.filter((m) => m.profile === name).map((m) => m.content);
    const first = recordingProvider(providerName);
    const fanOut = startMemoryFanOut(client(), [first.provider], quiet);
    await until(() => mine(first.seen).length === 3, 'three deliveries');
    await fanOut.stop();
    expect(mine(first.seen)).toEqual(['one', 'two', 'three']);
    const reader = client();
    expect(await reader.readCheckpoint(providerCheckpoint(providerName))).not.toBeNull();
    await memory.add('memory', 'four', { profile: name });
    const second = recordingProvider(providerName);
    const restarted = startMemoryFanOut(reader, [second.provider], quiet);
    await until(() => mine(second.seen).length >= 1, 'the missed mutation');
    await memory.add('memory', 'five', { profile: name });
    await until(() => mine(second.seen).length === 2, 'a live delivery');
    await restarted.stop();
    expect(mine(second.seen)).toEqual(['four', 'five']);
  });
});
