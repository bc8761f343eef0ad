import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, type Decider, type RecordedEvent } from '@session-ledger/core';

/** A toy decider: the state is the ids and revisions folded; a command adds its id once (a second time: a no-op). */
interface Seen {
  ids: string[];
  revisions: bigint[];
}
const once: Decider<{ id: string }, Seen, number> = {
  name: 'once',
  initialState: () => ({ ids: [], revisions: [] }),
  evolve: (state, event: RecordedEvent) => ({ ids: [...state.ids, event.id], revisions: [...state.revisions, event.revision] }),
  decide: (command, state) =>
    state.ids.includes(command.id) ? { events: [], reply: state.ids.length } : { events: [{ id: command.id, type: 'added', data: {} }], reply: state.ids.length + 1 },
};

describe('the command handler (decide, append, evolve, one cache)', () => {
  it('evolves its own append with the revisions the store gave, without reading', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.handle(once, 's', { id: newId() });
    const handled = await ledger.handle(once, 's', { id: newId() }, { expectedRevision: 0n });
    expect(handled).toMatchObject({ revision: 1n, written: true, reply: 2 });
    expect(handled.state.revisions).toEqual([0n, 1n]);
  });

  it("catches a cached stream up with another writer's appends, each folded once", async () => {
    const store = createMemoryStore();
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(once, 's', { id: newId() });
    await b.handle(once, 's', { id: newId() });
    await b.handle(once, 's', { id: newId() });
    const handled = await a.handle(once, 's', { id: newId() });
    expect(handled.state.revisions).toEqual([0n, 1n, 2n, 3n]);
  });

  it('folds again from the start when the stream changed under the cache (a soft delete)', async () => {
    const store = createMemoryStore();
    const [a, b] = [createLedger(store), createLedger(store)];
    await a.handle(once, 's', { id: newId() });
    await b.handle(once, 's', { id: newId() });
    await store.deleteStream('s');
    await b.handle(once, 's', { id: newId() });
    const view = await a.load(once, 's');
    expect(view.state.revisions).toEqual([2n]);
  });

  it('a stale caller revision is refused naming both revisions; one already applied is a no-op', async () => {
    const ledger = createLedger(createMemoryStore());
    const first = newId();
    await ledger.handle(once, 's', { id: first });
    await ledger.handle(once, 's', { id: newId() });
    await expect(ledger.handle(once, 's', { id: newId() }, { expectedRevision: 0n })).rejects.toMatchObject({
      type: 'wrong_expected_version',
      details: { stream: 's', expected: '0', actual: '1' },
    });
    await expect(ledger.handle(once, 's', { id: newId() }, { expectedRevision: -1n })).rejects.toMatchObject({ details: { expected: 'no_stream', actual: '1' } });
    await expect(ledger.handle(once, 't', { id: newId() }, { expectedRevision: 3n })).rejects.toMatchObject({ details: { expected: '3', actual: 'no_stream' } });
    await expect(ledger.handle(once, 's', { id: first }, { expectedRevision: 0n })).resolves.toMatchObject({ written: false, revision: 1n, reply: 2 });
  });

  it('an append the store answers as a replay (its ids are stored) is decided again on the stored state: a no-op, not a write', async () => {
    const store = createMemoryStore();
    const [a, b] = [createLedger(store), createLedger(store)];
    const id = newId();
    await a.load(once, 's'); // a's cache: 's' has no stream, so a decides without reading
    await b.handle(once, 's', { id });
    const handled = await a.handle(once, 's', { id }, { expectedRevision: -1n });
    expect(handled).toMatchObject({ written: false, revision: 0n, reply: 1 });
    expect(await store.readStream('s')).toHaveLength(1);
  });

});
