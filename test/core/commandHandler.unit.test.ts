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

  it('runs one stream\'s racing commands in turn: 16 writers without a revision all land, with 3 attempts each and none spent (outside test, session 16)', async () => {
    const store = createMemoryStore();
    let appends = 0;
    const counted = { ...store, appendToStream: (...args: Parameters<typeof store.appendToStream>) => ((appends += 1), store.appendToStream(...args)) };
    const ledger = createLedger(counted, { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, async (_, writer) => {
        for (let n = 0; n < 20; n += 1) await ledger.handle(once, 's', { id: newId() });
        return writer;
      }),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(appends).toBe(320); // one append a command: none refused and tried again
    expect((await store.readStream('s')).length).toBe(320);
  });

  it('after a conflict, reads only the events that landed since its cached revision', async () => {
    const store = createMemoryStore();
    const [a, b] = [createLedger(store), createLedger(store)];
    for (let n = 0; n < 50; n += 1) await a.handle(once, 's', { id: newId() });
    const reads: unknown[] = [];
    let race = false;
    const c = createLedger({
      ...store,
      readStream: (...args: Parameters<typeof store.readStream>) => (reads.push(args[1]?.fromRevision), store.readStream(...args)),
      // The first append once `race` is set: another writer lands first, so c's is refused.
      appendToStream: async (...args: Parameters<typeof store.appendToStream>) => {
        if (race) {
          race = false;
          await b.handle(once, 's', { id: newId() });
        }
        return store.appendToStream(...args);
      },
    });
    await c.handle(once, 's', { id: newId() }); // folds the 50 events, appends revision 50
    reads.length = 0;
    race = true;
    const handled = await c.handle(once, 's', { id: newId() }); // refused once (b took 51), then lands at 52
    expect(handled.revision).toBe(52n);
    expect(handled.state.revisions).toHaveLength(53);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((from) => typeof from === 'bigint' && from >= 51n)).toBe(true); // never folded from 0 again
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

  it('a no-op at a revision ahead of the stream is refused: no retry could have seen it (outside test, session 31, F9)', async () => {
    const ledger = createLedger(createMemoryStore());
    const first = newId();
    await ledger.handle(once, 's', { id: first });
    await expect(ledger.handle(once, 's', { id: first }, { expectedRevision: 1n })).rejects.toMatchObject({ type: 'wrong_expected_version', details: { expected: '1', actual: '0' } });
    await expect(ledger.handle(once, 's', { id: first }, { expectedRevision: 99n })).rejects.toMatchObject({ details: { expected: '99', actual: '0' } });
    await expect(ledger.handle(once, 's', { id: first }, { expectedRevision: 0n })).resolves.toMatchObject({ written: false, revision: 0n });
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
