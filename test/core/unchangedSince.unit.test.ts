import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, type Decider, type EventStore, type RecordedEvent } from '@session-ledger/core';

/** A toy decider: the state is the revisions folded. */
const counted: Decider<{ id: string }, bigint[], number> = {
  name: 'counted',
  initialState: () => [],
  evolve: (state, event: RecordedEvent) => [...state, event.revision],
  decide: (command, state) => ({ events: [{ id: command.id, type: 'added', data: {} }], reply: state.length + 1 }),
};

/** A toy lease: one holder at a time; claiming what one holds is a no-op, what another holds a refusal. */
type Claim = { id: string; who: string; op: 'claim' | 'release' };
const claims: Decider<Claim, string | null, string> = {
  name: 'claims',
  initialState: () => null,
  evolve: (_, event: RecordedEvent) => (event.type === 'claimed' ? (event.data as { who: string }).who : null),
  decide: (command, holder) => {
    if (command.op === 'release') return { events: [{ id: command.id, type: 'released', data: {} }], reply: 'released' };
    if (holder === command.who) return { events: [], reply: 'held already' };
    if (holder !== null) throw new Error(`held by ${holder}`);
    return { events: [{ id: command.id, type: 'claimed', data: { who: command.who } }], reply: 'claimed' };
  },
};

/** A memory store that answers `unchangedSince` as told and counts its stream reads. */
const storeSaying = (answer: (stream: string, revision: bigint, hint: boolean) => boolean) => {
  const inner = createMemoryStore();
  const seen = { reads: 0, asked: [] as Array<[string, bigint]>, hints: [] as boolean[] };
  const store: EventStore = {
    ...inner,
    appendToStream: (stream, events, options) => inner.appendToStream(stream, events, options),
    readStream: (stream, options) => {
      seen.reads += 1;
      return inner.readStream(stream, options);
    },
    unchangedSince: (stream, revision, hint = false) => {
      seen.asked.push([stream, revision]);
      seen.hints.push(hint);
      return answer(stream, revision, hint);
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

  /** The store's hint misses what another writer committed; its full answer (without hint) does not. */
  const missingAnotherCommit = () => storeSaying((_, __, hint) => hint);

  it('writes on the hint alone: the append is conditional on the revision, so the store refuses it if the hint was wrong', async () => {
    const { store, seen } = missingAnotherCommit();
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' });
    await a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'release' });
    expect(seen.hints.at(-1)).toBe(true);
    await b.handle(claims, 'lease', { id: newId(), who: 'b', op: 'claim' });
    // a's cache says the lease is free: its claim, decided on the hint, is refused at the commit, then read and decided again.
    await expect(a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' })).rejects.toThrow('held by b');
    expect((await a.load(claims, 'lease')).state).toBe('b');
  });

  it('decides a refusal made on the hint again on a read: a command invoked after another writer freed the lease is granted', async () => {
    const { store } = missingAnotherCommit();
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(claims, 'lease', { id: newId(), who: 'b', op: 'claim' }); // a's cache: held by b
    await b.handle(claims, 'lease', { id: newId(), who: 'b', op: 'release' });
    const handled = await a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' });
    expect([handled.reply, handled.written, handled.revision]).toEqual(['claimed', true, 2n]);
  });

  it('decides a no-op made on the hint again on a read: a claim after another writer released it is stored', async () => {
    const { store } = missingAnotherCommit();
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' }); // a's cache: held by a
    await b.handle(claims, 'lease', { id: newId(), who: 'a', op: 'release' });
    const handled = await a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' });
    expect([handled.reply, handled.written]).toEqual(['claimed', true]);
    expect((await b.load(claims, 'lease')).state).toBe('a');
  });

  it('readers never take the hint (load asks for the full answer)', async () => {
    const { store, seen } = missingAnotherCommit();
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' });
    await b.handle(claims, 'lease', { id: newId(), who: 'a', op: 'release' });
    expect((await a.load(claims, 'lease')).state).toBe(null);
    expect(seen.hints.at(-1)).toBe(false);
  });

  it('never takes the hint for a caller at another revision than its entry: a caller at the revision another writer just stored is served (outside test, session 19)', async () => {
    const { store } = missingAnotherCommit();
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(counted, 's', { id: newId() }); // a's entry: revision 0
    const other = await b.handle(counted, 's', { id: newId() });
    const handled = await a.handle(counted, 's', { id: newId() }, { expectedRevision: other.revision });
    expect([handled.revision, handled.state]).toEqual([2n, [0n, 1n, 2n]]);
  });

  it('a caller at the revision its stale entry holds is answered from the stream, not the entry: the conflict, never a refusal or a no-op of the entry (outside test, session 19)', async () => {
    const { store } = storeSaying(() => false);
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' }); // a's entry: held by a, revision 0
    await b.handle(claims, 'lease', { id: newId(), who: 'a', op: 'release' }); // revision 1
    // On the entry, a claim by b is refused (held by a) and a claim by a is a no-op (stored nothing, answered as applied).
    await expect(a.handle(claims, 'lease', { id: newId(), who: 'b', op: 'claim' }, { expectedRevision: 0n })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    await expect(a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' }, { expectedRevision: 0n })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    // A caller at the current revision is served.
    expect((await a.handle(claims, 'lease', { id: newId(), who: 'a', op: 'claim' }, { expectedRevision: 1n })).written).toBe(true);
  });
});
