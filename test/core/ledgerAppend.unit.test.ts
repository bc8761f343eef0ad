import { describe, expect, it } from 'vitest';
import {
  createLedger,
  createMemoryStore,
  isLedgerError,
  newId,
  storeUnavailable,
  wrongExpectedVersion,
  type EventStore,
  type NewEvent,
} from '@session-ledger/core';

const event = (n: number): NewEvent => ({ id: newId(), type: 't', data: { n } });
const events = (count: number, from = 0) => Array.from({ length: count }, (_, index) => event(from + index));

/** The store with its appends counted and, optionally, replaced. */
const counted = (store: EventStore, append?: EventStore['appendToStream']) => {
  const calls = { append: 0 };
  const wrapped: EventStore = {
    ...store,
    appendToStream: (...args) => {
      calls.append += 1;
      return (append ?? store.appendToStream)(...args);
    },
  };
  return { store: wrapped, calls };
};

const idsIn = async (store: EventStore, stream: string) => (await store.readStream(stream)).map((e) => e.id);

describe('ledger append: retries are recognised only when they are the same write', () => {
  it("given a committed batch, when the same batch is appended again with 'any', then nothing is written and the result names the committed tail", async () => {
    const ledger = createLedger(createMemoryStore());
    const batch = events(2);
    const first = await ledger.append('s', batch);

    const again = await ledger.append('s', batch);

    expect({ next: again.nextExpectedRevision, position: again.position }).toEqual({ next: first.nextExpectedRevision, position: first.position });
    expect(await idsIn(ledger.store, 's')).toEqual(batch.map((e) => e.id));
  });
});

describe('ledger append: expected revisions', () => {
  it("given a missing stream, when appending with 'stream_exists', then it is wrong_expected_version (actual no_stream) and no stream is created", async () => {
    const ledger = createLedger(createMemoryStore());

    await expect(ledger.append('s', [event(0)], { expectedRevision: 'stream_exists' })).rejects.toMatchObject({
      type: 'wrong_expected_version',
      details: { stream: 's', expected: 'stream_exists', actual: 'no_stream' },
    });
    await expect(ledger.store.readStream('s')).rejects.toMatchObject({ type: 'stream_not_found' });
  });

  it('given a stream at revision 0, when appending at a future exact revision, then the conflict names that revision and the actual one', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s', [event(0)]);

    await expect(ledger.append('s', [event(1)], { expectedRevision: 7n })).rejects.toMatchObject({
      type: 'wrong_expected_version',
      details: { stream: 's', expected: '7', actual: '0' },
    });
  });

  it('given a conflicting exact revision, then the store is asked once: the conflict is the caller\'s to handle', async () => {
    const { store, calls } = counted(createMemoryStore());
    const ledger = createLedger(store);
    await ledger.append('s', events(2));
    calls.append = 0;

    await expect(ledger.append('s', [event(9)], { expectedRevision: 0n })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    await expect(ledger.append('s', [event(9)], { expectedRevision: 'no_stream' })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    expect(calls.append).toBe(2);
  });

  it("given a store that always answers wrong_expected_version, then an 'any' append gives up after the retry policy's attempts", async () => {
    const { store, calls } = counted(createMemoryStore(), async (stream) => {
      throw wrongExpectedVersion(stream, 'any', '99');
    });
    const ledger = createLedger(store, { retry: { attempts: 5, baseDelayMs: 0, maxDelayMs: 0 } });

    await expect(ledger.append('s', [event(0)])).rejects.toMatchObject({ type: 'wrong_expected_version' });
    expect(calls.append).toBe(5);
  });

  it("given a store that fails an append for another reason, then an 'any' append is not retried", async () => {
    const { store, calls } = counted(createMemoryStore(), async () => {
      throw storeUnavailable('disk gone');
    });

    await expect(createLedger(store).append('s', [event(0)])).rejects.toMatchObject({ type: 'store_unavailable' });
    expect(calls.append).toBe(1);
  });

  it('given reads that fail, then an append fails with that error and writes nothing', async () => {
    const base = createMemoryStore();
    await createLedger(base).append('s', [event(0)]);
    const store: EventStore = {
      ...base,
      readStream: async () => {
        throw storeUnavailable('reads are down');
      },
    };
    const ledger = createLedger(store);

    await expect(ledger.append('s', [event(1)])).rejects.toMatchObject({ type: 'store_unavailable' });
    await expect(ledger.append('s', [event(1)], { expectedRevision: 0n })).rejects.toMatchObject({ type: 'store_unavailable' });
    expect((await base.readStream('s')).length).toBe(1);
  });
});

describe('ledger append after a soft delete', () => {
  it('given a one-event stream soft-deleted, then the next append continues at revision 1 and its chain verifies', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s', [event(0)]);
    await ledger.store.deleteStream('s');

    await createLedger(ledger.store).append('s', [event(1)]);

    expect((await ledger.store.readStream('s')).map((e) => e.revision)).toEqual([1n]);
    expect(await ledger.verify({ stream: 's' })).toMatchObject({ broken: null });
  });

  it("given the ledger wrote the deleted events itself, then an append with 'no_stream' starts a chain with no predecessor", async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s', events(3));
    await ledger.store.deleteStream('s');

    await ledger.append('s', [event(3)], { expectedRevision: 'no_stream' });

    const [first] = await ledger.store.readStream('s');
    expect(first).toMatchObject({ revision: 3n, metadata: { prevHash: null } });
  });

  it('refuses metadata that claims the chain keys with a message naming them', async () => {
    const ledger = createLedger(createMemoryStore());
    const refused = await ledger.append('s', [{ ...event(0), metadata: { prevHash: null } }]).catch((error: unknown) => error);
    expect(isLedgerError(refused, 'invalid_input') && refused.message).toBe('Metadata keys prevHash and hash belong to the ledger');
  });
});

describe('ledger verify', () => {
  it('reports a broken link in any stream of the store, naming it', async () => {
    const base = createMemoryStore();
    const ledger = createLedger(base);
    await ledger.append('a', events(2));
    await ledger.append('b', events(2));
    const tampered: EventStore = {
      ...base,
      readStream: async (stream, options) =>
        (await base.readStream(stream, options)).map((e) => (stream === 'b' && e.revision === 1n ? { ...e, data: { n: 'forged' } } : e)),
    };

    expect(await createLedger(tampered).verify()).toMatchObject({ streams: 2, broken: { stream: 'b', revision: 1n, reason: 'hash' } });
    expect(await ledger.verify()).toEqual({ streams: 2, events: 4, broken: null });
  });

  it('pages through streams and the store longer than one page (1000 events)', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('long', events(1001));
    await ledger.append('short', [event(0)]);

    expect(await ledger.verify({ stream: 'long' })).toEqual({ streams: 1, events: 1001, broken: null });
    expect(await ledger.verify()).toEqual({ streams: 2, events: 1002, broken: null });
  });
});

describe('ledger append: a retry at its exact revision', () => {
  it('given [x] then [a, b] at revision 0, when [a, b] is retried at revision 0, then nothing is written and the result names b', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s', [event(0)]);
    const batch = events(2, 1);
    const first = await ledger.append('s', batch, { expectedRevision: 0n });

    const again = await ledger.append('s', batch, { expectedRevision: 0n });

    expect(again).toMatchObject({ nextExpectedRevision: first.nextExpectedRevision, written: false });
    expect((await ledger.store.readStream('s')).length).toBe(3);
  });

  it('given a committed event, when its id is appended again with other data, then duplicate names the id and the stream', async () => {
    const ledger = createLedger(createMemoryStore());
    const original = event(0);
    await ledger.append('s', [original], { expectedRevision: 'no_stream' });

    await expect(ledger.append('s', [{ ...original, data: { n: 'other' } }], { expectedRevision: 'no_stream' })).rejects.toMatchObject({
      type: 'duplicate',
      message: `Event id ${original.id} is already stored in s with other content`,
      details: { what: `event ${original.id} in s` },
    });
  });

  it('works on a store that cannot tell a stream state (no streamState)', async () => {
    const { streamState: _unused, ...bare } = createMemoryStore();
    const ledger = createLedger(bare);

    await ledger.append('s', [event(0)]);
    await ledger.append('s', [event(1)], { expectedRevision: 0n });

    expect(await ledger.verify()).toEqual({ streams: 1, events: 2, broken: null });
  });
});

describe('ledger append: a head the caller hands in', () => {
  it('given a head of another revision than the expected one, then it is ignored and the chain links to the stored event', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s', events(2));

    await ledger.append('s', [event(2)], { expectedRevision: 1n, head: { revision: 0n, hash: 'f'.repeat(64) } });

    expect(await ledger.verify({ stream: 's' })).toEqual({ streams: 1, events: 3, broken: null });
  });
});

describe("ledger append with 'stream_exists'", () => {
  it('given an existing stream, then the events chain onto its last event', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s', events(2));

    await ledger.append('s', [event(2)], { expectedRevision: 'stream_exists' });

    expect(await ledger.verify({ stream: 's' })).toEqual({ streams: 1, events: 3, broken: null });
  });
});
