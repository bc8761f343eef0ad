import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore, readAllPages, type EventStore } from '@session-ledger/core';
import { connect, events, unique } from './helpers.js';

describe('EventStoreDB adapter through the real client', () => {
  let env: Awaited<ReturnType<typeof connect>>;
  let store: EventStore;
  beforeAll(async () => {
    env = await connect({ store: createMemoryStore() });
    store = env.store;
  });
  afterAll(() => env.close());

  it('never shows system events, $$ metadata streams or checkpoint streams in $all', async () => {
    const stream = unique('visible');
    await store.appendToStream(stream, events(2));
    await store.storeCheckpoint(unique('cp'), 1n);
    await store.deleteStream(stream);
    const raw = await env.server.store.readAll();
    expect(raw.some((event) => event.streamName.startsWith('$'))).toBe(true);
    expect(raw.some((event) => event.streamName.startsWith('ledger-checkpoint-'))).toBe(true);
    const shown = await store.readAll();
    expect(shown.filter((event) => event.streamName.startsWith('$') || event.type.startsWith('$'))).toEqual([]);
    expect(shown.filter((event) => event.streamName.startsWith('ledger-checkpoint-'))).toEqual([]);
  });

  it("refuses an append over the server's MaxAppendSize (1 MiB by default) as invalid_input, storing none of it", async () => {
    const stream = unique('large');
    const big = [{ ...events(1)[0]!, data: { text: 'x'.repeat(600 * 1024) } }, { ...events(1)[0]!, data: { text: 'y'.repeat(600 * 1024) } }];
    await expect(store.appendToStream(stream, big)).rejects.toMatchObject({ type: 'invalid_input', message: expect.stringMatching(/Maximum Append Size/) });
    await expect(store.readStream(stream)).rejects.toMatchObject({ type: 'stream_not_found' });
    await store.appendToStream(stream, big.slice(0, 1));
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it('counts only visible events towards maxCount, across hidden runs', async () => {
    const stream = unique('count');
    for (let i = 0; i < 5; i += 1) {
      await store.storeCheckpoint(unique('noise'), BigInt(i));
      await store.appendToStream(stream, events(1));
    }
    const all = await store.readAll();
    const mine = all.filter((event) => event.streamName === stream);
    const firstMine = mine[0]!.position;
    const page = await store.readAll({ fromPosition: firstMine, maxCount: 5 });
    expect(page.map((event) => event.streamName)).toEqual(Array(5).fill(stream));
  });

  it('pages $all with "last position + 1" although positions are not contiguous', async () => {
    const stream = unique('paged');
    await store.appendToStream(stream, events(23));
    const seen: string[] = [];
    for await (const page of readAllPages(store, 'start', 7)) seen.push(...page.filter((e) => e.streamName === stream).map((e) => e.id));
    const direct = (await store.readStream(stream)).map((event) => event.id);
    expect(seen).toEqual(direct);
  });

  it('reads $all forwards from a position that starts no record by the record after it', async () => {
    const stream = unique('mid');
    await store.appendToStream(stream, events(3));
    const [first, second] = (await store.readAll()).filter((event) => event.streamName === stream);
    const fresh = await connect({ store: env.server.store, systemEvents: false });
    try {
      const page = await fresh.store.readAll({ fromPosition: first!.position + 1n, maxCount: 1 });
      expect(page[0]?.id).toBe(second!.id);
    } finally {
      await fresh.close();
    }
  });

  it('includes the start position when reading $all backwards from it', async () => {
    const stream = unique('back');
    await store.appendToStream(stream, events(3));
    const mine = (await store.readAll()).filter((event) => event.streamName === stream);
    const page = await store.readAll({ direction: 'backwards', fromPosition: mine[1]!.position, maxCount: 2 });
    expect(page.map((event) => event.id)).toEqual([mine[1]!.id, mine[0]!.id]);
  });

  it('soft-deletes with stream_exists, which the client cannot send, and refuses it for a missing stream', async () => {
    const stream = unique('exists');
    await store.appendToStream(stream, events(2));
    await store.deleteStream(stream, { expectedRevision: 'stream_exists' });
    await expect(store.readStream(stream)).rejects.toMatchObject({ type: 'stream_not_found' });
    await expect(store.deleteStream(unique('none'), { expectedRevision: 'stream_exists' })).rejects.toMatchObject({
      type: 'wrong_expected_version',
      details: { expected: 'stream_exists', actual: 'no_stream' },
    });
  });

  it('reports conflicts with the expected and actual revisions, for appends, deletes and tombstones', async () => {
    const stream = unique('conflict');
    await store.appendToStream(stream, events(3));
    await expect(store.appendToStream(stream, events(1), { expectedRevision: 0n })).rejects.toMatchObject({
      type: 'wrong_expected_version',
      details: { stream, expected: '0', actual: '2' },
    });
    await expect(store.appendToStream(stream, events(1), { expectedRevision: 'no_stream' })).rejects.toMatchObject({
      details: { expected: 'no_stream', actual: '2' },
    });
    await expect(store.deleteStream(stream, { expectedRevision: 1n })).rejects.toMatchObject({
      type: 'wrong_expected_version',
      details: { stream, expected: '1', actual: '2' },
    });
    await expect(store.tombstoneStream(stream, { expectedRevision: 'no_stream' })).rejects.toMatchObject({
      type: 'wrong_expected_version',
      details: { stream, expected: 'no_stream', actual: '2' },
    });
    await expect(store.deleteStream(unique('missing'), { expectedRevision: 4n })).rejects.toMatchObject({
      details: { expected: '4', actual: 'no_stream' },
    });
  });

  it('says whether an append wrote: a retry with the same ids, even from another client, reports written: false', async () => {
    const stream = unique('written');
    const batch = events(2);
    expect(await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toMatchObject({ written: true, nextExpectedRevision: 1n });
    expect(await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toMatchObject({ written: false, nextExpectedRevision: 1n });
    const other = await connect({ store: env.server.store, systemEvents: false });
    try {
      expect(await other.store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toMatchObject({ written: false });
      expect(await other.store.appendToStream(stream, batch)).toMatchObject({ written: false });
      expect(await other.store.appendToStream(stream, events(1), { expectedRevision: 1n })).toMatchObject({ written: true, nextExpectedRevision: 2n });
    } finally {
      await other.close();
    }
    expect(await store.readStream(stream)).toHaveLength(3);
  });

  it('keeps named checkpoints in the store: the last one written wins, a new client reads it', async () => {
    const name = unique('projector');
    expect(await store.readCheckpoint(name)).toBeNull();
    await store.storeCheckpoint(name, 10n);
    await store.storeCheckpoint(name, 12n);
    const other = await connect({ store: env.server.store, systemEvents: false });
    try {
      expect(await other.store.readCheckpoint(name)).toBe(12n);
    } finally {
      await other.close();
    }
  });

  it('reports a server that is gone as store_unavailable', async () => {
    const gone = await connect();
    await gone.store.appendToStream(unique('x'), events(1));
    await gone.server.close();
    await expect(gone.store.readAll({ maxCount: 1 })).rejects.toMatchObject({ type: 'store_unavailable' });
    await expect(gone.store.appendToStream(unique('x'), events(1))).rejects.toMatchObject({ type: 'store_unavailable' });
    await gone.store.close();
  });
});
