import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, type EventStore, type NewEvent } from '@session-ledger/core';

const event = (n: number): NewEvent => ({ id: newId(), type: 't', data: { n } });

/** A memory store counting its stream reads. */
const reading = () => {
  const inner = createMemoryStore();
  const calls = { reads: 0 };
  const store: EventStore = {
    ...inner,
    readStream: (stream, options) => {
      calls.reads += 1;
      return inner.readStream(stream, options);
    },
  };
  return { store, calls };
};

describe('ledger append at an exact revision: the head of its own last append', () => {
  it('chains onto the head its own previous append left, without reading it', async () => {
    const { store, calls } = reading();
    const ledger = createLedger(store);
    let next = (await ledger.append('s', [event(0)], { expectedRevision: 'no_stream' })).nextExpectedRevision;
    const before = calls.reads;
    for (let n = 1; n <= 3; n += 1) next = (await ledger.append('s', [event(n)], { expectedRevision: next })).nextExpectedRevision;
    expect(calls.reads).toBe(before);
    expect(await ledger.verify({ stream: 's' })).toEqual({ streams: 1, events: 4, broken: null });
  });

  it('reads the head when another writer moved the stream, and a stale caller revision is still refused', async () => {
    const { store, calls } = reading();
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.append('s', [event(0)], { expectedRevision: 'no_stream' });
    await b.append('s', [event(1)], { expectedRevision: 0n });
    await expect(a.append('s', [event(2)], { expectedRevision: 0n })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    const before = calls.reads;
    await a.append('s', [event(2)], { expectedRevision: 1n });
    expect(calls.reads).toBeGreaterThan(before);
    expect(await a.verify({ stream: 's' })).toEqual({ streams: 1, events: 3, broken: null });
  });

  it('keeps the heads of the 512 streams written last: an older one is read again', async () => {
    const { store, calls } = reading();
    const ledger = createLedger(store);
    for (let n = 0; n <= 512; n += 1) await ledger.append(`s-${n}`, [event(0)], { expectedRevision: 'no_stream' });
    const before = calls.reads;
    await ledger.append('s-1', [event(1)], { expectedRevision: 0n });
    await ledger.append('s-512', [event(1)], { expectedRevision: 0n });
    expect(calls.reads).toBe(before);
    await ledger.append('s-0', [event(1)], { expectedRevision: 0n });
    expect(calls.reads).toBe(before + 1);
    expect((await ledger.verify()).broken).toBeNull();
  });

  it('after a soft delete the chain starts again with no predecessor', async () => {
    const { store } = reading();
    const ledger = createLedger(store);
    await ledger.append('s', [event(0)], { expectedRevision: 'no_stream' });
    await ledger.append('s', [event(1)], { expectedRevision: 0n });
    await store.deleteStream('s');
    await expect(ledger.append('s', [event(2)], { expectedRevision: 1n })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    await ledger.append('s', [event(2)], { expectedRevision: 'no_stream' });
    await ledger.append('s', [event(3)], { expectedRevision: 2n });
    const stored = await store.readStream('s');
    expect(stored.map((e) => [e.revision, e.metadata.prevHash === null])).toEqual([[2n, true], [3n, false]]);
    expect(await ledger.verify({ stream: 's' })).toEqual({ streams: 1, events: 2, broken: null });
  });
});
