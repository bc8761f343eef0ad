import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  canonicalJson,
  chainHash,
  chainText,
  createLedger,
  createMemoryStore,
  hashOf,
  isLedgerError,
  newId,
  verifyStreamChain,
  type ChainInput,
  type JsonValue,
  type RecordedEvent,
} from '@session-ledger/core';

/** fast-check types object members as optional; its generator never leaves one undefined, which this checks. */
const isStoredJson = (value: fc.JsonValue): value is JsonValue =>
  value === null || typeof value !== 'object'
    ? true
    : Array.isArray(value)
      ? value.every(isStoredJson)
      : Object.values(value).every((member) => member !== undefined && isStoredJson(member));

const chained = async (count: number): Promise<RecordedEvent[]> => {
  const ledger = createLedger(createMemoryStore());
  await ledger.append('s', Array.from({ length: count }, (_, n) => ({ id: newId(), type: 't', data: { n }, metadata: { who: 'me' } })));
  return ledger.store.readStream('s');
};

describe('hash chain links', () => {
  it('the hash does not depend on the key order of data or metadata', () => {
    const base = { stream: 's', revision: 0n, id: newId(), type: 't' };
    expect(chainHash({ ...base, data: { a: 1, b: 2 }, metadata: { x: 1, prevHash: null } })).toBe(
      chainHash({ ...base, data: { b: 2, a: 1 }, metadata: { prevHash: null, x: 1 } }),
    );
  });

  it('the hash covers stream, revision, id and type', () => {
    const base = { stream: 's', revision: 0n, id: newId(), type: 't', data: {}, metadata: { prevHash: null } };
    const hash = chainHash(base);
    expect(chainHash({ ...base, stream: 's2' })).not.toBe(hash);
    expect(chainHash({ ...base, revision: 1n })).not.toBe(hash);
    expect(chainHash({ ...base, id: newId() })).not.toBe(hash);
    expect(chainHash({ ...base, type: 'u' })).not.toBe(hash);
  });

  it('an edited metadata value breaks the link of that event', async () => {
    const events = await chained(3);
    events[1]!.metadata.who = 'someone else';
    expect(verifyStreamChain(events)).toMatchObject({ revision: 1n, reason: 'hash' });
  });

  // Outside test, session 26: a stored 1e400 reads back as Infinity; `audit verify --stream` ended with exit 2 naming no event.
  it('an event whose stored data reads back as a value no event holds (Infinity) breaks its link, naming why', async () => {
    const events = await chained(3);
    (events[1]!.data as { n: number }).n = Number.POSITIVE_INFINITY;
    expect(verifyStreamChain(events)).toMatchObject({ revision: 1n, reason: 'hash', expected: expect.stringMatching(/^no hash: .*Not a JSON number: Infinity/) });
  });

  it('an event removed from the middle breaks the next link', async () => {
    const events = await chained(4);
    events.splice(1, 1);
    expect(verifyStreamChain(events)).toMatchObject({ revision: 2n, reason: 'prev' });
  });

  it('a first event that claims a predecessor at revision 0 is broken', async () => {
    const events = await chained(1);
    events[0]!.metadata.prevHash = 'f'.repeat(64);
    expect(verifyStreamChain(events)).toMatchObject({ revision: 0n, reason: 'prev', expected: 'null' });
  });

  it('a ledger append after a soft delete continues the numbering and the chain verifies', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s', [{ id: newId(), type: 't', data: 1 }, { id: newId(), type: 't', data: 2 }]);
    await ledger.store.deleteStream('s');
    await ledger.append('s', [{ id: newId(), type: 't', data: 3 }]);
    await createLedger(ledger.store).append('s', [{ id: newId(), type: 't', data: 4 }], { expectedRevision: 2n });
    await ledger.store.deleteStream('s');
    await createLedger(ledger.store).append('s', [{ id: newId(), type: 't', data: 5 }], { expectedRevision: 'no_stream' });
    const events = await ledger.store.readStream('s');
    expect(events.map((event) => event.revision)).toEqual([4n]);
    expect((await ledger.verify()).broken).toBeNull();
  });

  it('after a soft delete the first readable event anchors the chain', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s', [{ id: newId(), type: 't', data: 1 }, { id: newId(), type: 't', data: 2 }]);
    await ledger.store.deleteStream('s');
    await ledger.append('s', [{ id: newId(), type: 't', data: 3 }, { id: newId(), type: 't', data: 4 }]);
    const events = await ledger.store.readStream('s');
    expect(events[0]!.revision).toBe(2n);
    expect(verifyStreamChain(events)).toBeNull();
  });

  it('the ledger refuses writer metadata that claims the chain keys', async () => {
    const ledger = createLedger(createMemoryStore());
    await expect(ledger.append('s', [{ id: newId(), type: 't', data: 1, metadata: { hash: 'x' } }])).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(ledger.store.readStream('s')).rejects.toMatchObject({ type: 'stream_not_found' });
  });
});

describe('chain text', () => {
  it('given any data and metadata (flat or nested, sorted or not, numeric keys), when encoded for the chain, then it is the canonical JSON of the six keys', () => {
    const flat = fc.dictionary(fc.oneof(fc.string(), fc.nat(20).map(String)), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)));
    const value = fc.oneof(flat, fc.jsonValue().filter(isStoredJson), fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    fc.assert(
      fc.property(value, flat, fc.bigInt({ min: 0n, max: 1n << 62n }), fc.string(), (data, metadata, revision, id) => {
        const input = { stream: 'session-s', revision, id, type: 'message.appended', data, metadata };
        expect(chainText(input)).toBe(canonicalJson({ ...input, revision: revision.toString() }));
      }),
      { numRuns: 500 },
    );
  });

  it('given a number JSON cannot carry, when encoded for the chain, then it is refused as canonicalJson refuses it', () => {
    const input = { stream: 'session-s', revision: 0n, id: 'e', type: 't', metadata: {} };
    for (const data of [Number.NaN, Number.POSITIVE_INFINITY, { a: Number.NEGATIVE_INFINITY }]) {
      expect(() => chainText({ ...input, data })).toThrow(expect.objectContaining({ type: 'invalid_input' }));
    }
  });
});

describe('chain text of events in an unusual shape', () => {
  const outcome = (encode: () => string) => {
    try {
      return { text: encode() };
    } catch (error) {
      return { error: isLedgerError(error) ? error.type : String(error) };
    }
  };

  it('given a missing field (an event decoded from a foreign store), when encoded for the chain, then it is exactly canonicalJson of the six keys', () => {
    // Unsorted data keeps the generic encoder from taking its flat shortcut.
    const usual = { stream: 'session-s', revision: 3n, id: 'e', type: 'message.appended', data: { b: 1, a: 2 }, metadata: { prevHash: null } };
    for (const missing of ['stream', 'id', 'type', 'data', 'metadata'] as const) {
      // Deliberately bad input: the field the type requires is absent.
      const input = { ...usual, [missing]: undefined } as unknown as ChainInput;
      expect(outcome(() => chainText(input)), missing).toEqual(outcome(() => canonicalJson({ ...input, revision: '3' })));
    }
  });

  it('hashOf reads a string hash only', async () => {
    const [event] = await chained(1);
    expect(hashOf(event!)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf({ ...event!, metadata: { ...event!.metadata, hash: 42 } })).toBeNull();
  });

  it('an event rewritten with a recomputed hash of its own breaks the link of the next event', async () => {
    const events = await chained(3);
    const forged = events[1]!;
    forged.data = { n: 'forged' };
    const { hash: _old, ...rest } = forged.metadata;
    forged.metadata = {
      ...rest,
      hash: chainHash({ stream: forged.streamName, revision: forged.revision, id: forged.id, type: forged.type, data: forged.data, metadata: rest }),
    };
    expect(verifyStreamChain(events)).toMatchObject({ revision: 2n, reason: 'prev', expected: forged.metadata.hash });
  });
});
