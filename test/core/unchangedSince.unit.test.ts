import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, type Decider, type EventStore, type RecordedEvent } from '@session-ledger/core';

/** A toy decider: the state is the revisions folded. */
const counted: Decider<{ id: string }, bigint[], number> = {
  name: 'counted',
  initialState: () => [],
  evolve: (state, event: RecordedEvent) => [...state, event.revision],
  decide: (command, state) => ({ events: [{ id: command.id, type: 'added', data: {} }], reply: state.length + 1 }),
};

/** A memory store that answers `unchangedSince` as told and counts its stream reads. */
const storeSaying = (answer: (stream: string, revision: bigint) => boolean) => {
  const inner = createMemoryStore();
  const seen = { reads: 0, asked: [] as Array<[string, bigint]> };
  const store: EventStore = {
    ...inner,
    appendToStream: (stream, events, options) => inner.appendToStream(stream, events, options),
    readStream: (stream, options) => {
      seen.reads += 1;
      return inner.readStream(stream, options);
    },
    unchangedSince: (stream, revision) => {
      seen.asked.push([stream, revision]);
      return answer(stream, revision);
    },
  };
  return { store, seen };
};

describe('the command handler with a store that can say a stream is unchanged', () => {
  it('decides on its cached state without reading while the store says the stream is still at that revision', async () => {
    const { store, seen } = storeSaying(() => true);
    const ledger = createLedger(store);
    await ledger.handle(counted, 's', { id: newId() });
    const before = seen.reads;
    const second = await ledger.handle(counted, 's', { id: newId() });
    const third = await ledger.handle(counted, 's', { id: newId() });
    expect(seen.reads).toBe(before);
    expect(seen.asked).toEqual([['s', 0n], ['s', 1n]]);
    expect([second.reply, third.reply, third.revision]).toEqual([2, 3, 2n]);
    expect((await ledger.load(counted, 's')).state).toEqual([0n, 1n, 2n]);
    expect(seen.reads).toBe(before);
  });

  it('catches up by a read when the store says the stream moved (another writer appended)', async () => {
    const { store, seen } = storeSaying(() => false);
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(counted, 's', { id: newId() });
    await b.handle(counted, 's', { id: newId() });
    const before = seen.reads;
    const handled = await a.handle(counted, 's', { id: newId() });
    expect(seen.reads).toBeGreaterThan(before);
    expect(handled.state).toEqual([0n, 1n, 2n]);
  });

  it('never asks about a stream it holds no state of (the first write reads)', async () => {
    const { store, seen } = storeSaying(() => true);
    await createLedger(store).handle(counted, 'fresh', { id: newId() });
    expect(seen.asked).toEqual([]);
    expect(seen.reads).toBe(1);
  });
});
