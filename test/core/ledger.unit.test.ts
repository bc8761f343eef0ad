import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createLedger, createMemoryStore, isLedgerError, newId, verifyStreamChain, type JsonObject } from '@session-ledger/core';

describe('ledger hash chain', () => {
  it('links each event to its predecessor and verifies', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s-1', [{ id: newId(), type: 'a', data: { n: 1 } }], { expectedRevision: 'no_stream' });
    await ledger.append('s-1', [{ id: newId(), type: 'b', data: { n: 2 } }], { expectedRevision: 0n });
    await ledger.append('s-1', [{ id: newId(), type: 'c', data: { n: 3 } }]);
    const events = await ledger.store.readStream('s-1');
    expect(events.map((event) => event.metadata.prevHash)).toEqual([null, events[0]!.metadata.hash, events[1]!.metadata.hash]);
    expect(verifyStreamChain(events)).toBeNull();
    expect((await ledger.verify()).broken).toBeNull();
  });

  it('reports the first broken link when data is edited', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s-1', [1, 2, 3].map((n) => ({ id: newId(), type: 't', data: { n } })));
    const events = await ledger.store.readStream('s-1');
    events[1]!.data = { n: 20 };
    const broken = verifyStreamChain(events);
    expect(broken).toMatchObject({ stream: 's-1', revision: 1n, reason: 'hash' });
  });

  it('refuses metadata that sets the chain keys itself, and stores nothing', async () => {
    const ledger = createLedger(createMemoryStore());
    const claims: JsonObject[] = [{ prevHash: null }, { hash: 'f'.repeat(64) }, { note: 'x', hash: null }];
    for (const metadata of claims) {
      const refused = await ledger.append('s-1', [{ id: newId(), type: 't', data: {}, metadata }]).catch((error: unknown) => error);
      expect(isLedgerError(refused, 'invalid_input')).toBe(true);
    }
    await expect(ledger.store.readStream('s-1')).rejects.toMatchObject({ type: 'stream_not_found' });
  });

  it('keeps the writer metadata beside the chain keys, and the chain covers it', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s-1', [{ id: newId(), type: 't', data: { b: [1], a: 'x' }, metadata: { schemaVersion: 2, zeta: { y: 1, x: 2 } } }]);
    const [event] = await ledger.store.readStream('s-1');
    expect(event!.metadata).toEqual({ prevHash: null, schemaVersion: 2, zeta: { y: 1, x: 2 }, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(verifyStreamChain([event!])).toBeNull();
    event!.metadata.schemaVersion = 3;
    expect(verifyStreamChain([event!])).toMatchObject({ reason: 'hash' });
  });

  it('a raw retry is recognised only when it is the same write: the same ids with other content are duplicate, at the tail and at an exact revision', async () => {
    const ledger = createLedger(createMemoryStore());
    const id = newId();
    await ledger.append('s-1', [{ id, type: 't', data: { n: 1 } }]);
    await expect(ledger.append('s-1', [{ id, type: 't', data: { n: 1 } }])).resolves.toMatchObject({ written: false });
    await expect(ledger.append('s-1', [{ id, type: 't', data: { n: 2 } }])).rejects.toMatchObject({ type: 'duplicate' });
    await expect(ledger.append('s-1', [{ id, type: 'other', data: { n: 1 } }], { expectedRevision: 'no_stream' })).rejects.toMatchObject({ type: 'duplicate' });
    await expect(ledger.append('s-1', [{ id, type: 't', data: { n: 1 }, metadata: { note: 'x' } }], { expectedRevision: 'no_stream' })).rejects.toMatchObject({ type: 'duplicate' });
    expect((await ledger.store.readStream('s-1')).map((event) => event.data)).toEqual([{ n: 1 }]);
  });

  it('two ledgers on one store, interleaving appends with and without revisions, never break the chain (no ledger caches a head)', async () => {
    const store = createMemoryStore();
    const [a, b] = [createLedger(store), createLedger(store)];
    let revision = (await a.append('s-1', [{ id: newId(), type: 't', data: { n: 0 } }], { expectedRevision: 'no_stream' })).nextExpectedRevision;
    for (let n = 1; n <= 6; n += 1) {
      const writer = n % 2 === 0 ? a : b;
      revision = (await writer.append('s-1', [{ id: newId(), type: 't', data: { n } }], n % 3 === 0 ? {} : { expectedRevision: revision })).nextExpectedRevision;
      await (n % 2 === 0 ? b : a).append('s-1', [{ id: newId(), type: 'other', data: { n } }]);
      revision += 1n;
    }
    expect((await a.verify()).broken).toBeNull();
    expect(await store.readStream('s-1')).toHaveLength(13);
  });
});

describe('two ledgers on one store', () => {
  const event = (n: number) => ({ id: newId(), type: 't', data: { n } });

  it('given ledger A wrote the head it caches and ledger B appended after it, when A appends at the exact current revision, then the chain links to B', async () => {
    const store = createMemoryStore();
    const a = createLedger(store);
    const b = createLedger(store);
    await a.append('s-1', [event(0)], { expectedRevision: 'no_stream' });
    await b.append('s-1', [event(1)], { expectedRevision: 0n });

    await a.append('s-1', [event(2)], { expectedRevision: 1n });

    const events = await store.readStream('s-1');
    expect(events.map((e) => e.metadata.prevHash)).toEqual([null, events[0]!.metadata.hash, events[1]!.metadata.hash]);
    expect(await a.verify()).toMatchObject({ events: 3, broken: null });
  });

  it("given any interleaving of two ledgers appending with 'any' and with exact revisions, then every append is stored and the chain verifies", async () => {
    const step = fc.record({ writer: fc.constantFrom(0, 1), exact: fc.boolean(), size: fc.integer({ min: 1, max: 3 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 12 }), async (steps) => {
        const store = createMemoryStore();
        const writers = [createLedger(store), createLedger(store)];
        let next: bigint | 'no_stream' = 'no_stream';
        let written = 0;
        for (const { writer, exact, size } of steps) {
          const events = Array.from({ length: size }, () => event(written));
          const result = await writers[writer]!.append('s-1', events, exact ? { expectedRevision: next } : {});
          next = result.nextExpectedRevision;
          written += size;
        }
        expect(await writers[0]!.verify()).toEqual({ streams: 1, events: written, broken: null });
      }),
      { seed: 12, numRuns: 200 },
    );
  });

  it("a raw 'any' batch that overlaps the stream's newest events only in part is refused, never stored twice; the whole batch again is a replay", async () => {
    const ledger = createLedger(createMemoryStore());
    const [a, b, c] = [1, 2, 3].map((n) => ({ id: newId(), type: 't', data: { n } }));
    await ledger.append('s-1', [a!]);
    await expect(ledger.append('s-1', [a!, b!])).rejects.toMatchObject({ type: 'wrong_expected_version' });
    await ledger.append('s-1', [b!]);
    await expect(ledger.append('s-1', [a!, c!])).rejects.toMatchObject({ type: 'wrong_expected_version' });
    await ledger.append('s-1', [c!]);
    await expect(ledger.append('s-1', [a!, b!])).resolves.toMatchObject({ written: false, nextExpectedRevision: 1n });
    expect((await ledger.store.readStream('s-1')).map((event) => event.id)).toEqual([a!.id, b!.id, c!.id]);
  });

  // The head is read, then the id looked up in the store's index: the other writer lands after either.
  it.each(['readStream', 'revisionOfId'] as const)("given another writer stores the same id just after this writer's %s, when this 'any' append goes on, then it is a replay, never a second copy", async (step) => {
    const store = createMemoryStore();
    const other = createLedger(store);
    const x = { id: newId(), type: 't', data: { n: 1 } };
    await other.append('s-1', [{ id: newId(), type: 't', data: { n: 0 } }]);
    let interleaved = false;
    // This writer's store: its first such call returns, then the other writer stores x, before anything else it does.
    const land = async () => {
      if (interleaved) return;
      interleaved = true;
      await other.append('s-1', [x]);
    };
    const racing: typeof store = {
      ...store,
      readStream: async (stream, options) => {
        const events = await store.readStream(stream, options);
        if (step === 'readStream') await land();
        return events;
      },
      revisionOfId: async (stream, id) => {
        const at = await store.revisionOfId!(stream, id);
        if (step === 'revisionOfId') await land();
        return at;
      },
    };
    const result = await createLedger(racing).append('s-1', [x]);
    expect(interleaved).toBe(true);
    expect(result).toMatchObject({ written: false, nextExpectedRevision: 1n });
    expect((await store.readStream('s-1')).map((event) => event.id).filter((id) => id === x.id)).toHaveLength(1);
  });
});
