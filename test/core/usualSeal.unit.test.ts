import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainHash, createLedger, createMemoryStore, newId, sealedTexts, sha256Hex, type EventData, type EventStore, type JsonObject, type JsonValue, type NewEvent } from '@session-ledger/core';
import { usualSeal } from '../../packages/core/src/usualSeal.js';

const ID = 'b3f1c2a4-0000-4000-8000-000000000001';
const PREV = sha256Hex('previous');

/** The chain's metadata as the ledger builds it: prevHash first, then the writer's. */
const chained = (prev: string | null, writer?: JsonObject): JsonObject => ({ prevHash: prev, ...writer });

/** What the general path gives for the same event: chainHash, and the row texts JSON.stringify writes. */
const general = (stream: string, revision: bigint, id: string, type: string, data: JsonValue, prev: string | null, writer?: JsonObject) => {
  const metadata = chained(prev, writer);
  const hash = chainHash({ stream, revision, id, type, data, metadata });
  return { hash, dataText: JSON.stringify(data), metadataText: JSON.stringify({ ...metadata, hash }) };
};

/** Flat data as writers build it: any keys (escapes, non-ASCII, digits), JSON primitives and undefined members. */
const flatData = fc.dictionary(
  fc.oneof(fc.string(), fc.constantFrom('role', 'n', 'text', 'a', 'b', 'é', 'Z', '_x')),
  fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constant(undefined)),
  { maxKeys: 20 },
);

describe('usualSeal (one serialisation of the usual event for its hash and its row)', () => {
  it('gives the bench event the general path hash and the texts JSON.stringify writes, keys in the writer order', () => {
    const data = { role: 'assistant', n: 7, text: 'The assistant replied.' };
    for (const prev of [null, PREV]) {
      const sealed = usualSeal('session-bench', 7n, ID, 'turn.appended', data, chained(prev));
      expect(sealed).toEqual(general('session-bench', 7n, ID, 'turn.appended', data, prev));
      expect(sealed!.dataText).toBe('{"role":"assistant","n":7,"text":"The assistant replied."}');
    }
    // Past ASCII (and DEL), still written as they are: the same hash as the general path.
    for (const [stream, type, key] of [['séance-1', 'tür', 'clé'], ['s\u007f', 't\u{1F600}', 'k\u2028']] as const) {
      const sealed = usualSeal(stream, 0n, ID, type, { [key]: 'v', a: 1 }, chained(null));
      expect(sealed).toBeDefined();
      expect(sealed).toEqual(general(stream, 0n, ID, type, { [key]: 'v', a: 1 }, null));
    }
  });

  it('gives the general path hash and texts for every flat data it takes, and takes the usual ones', () => {
    fc.assert(
      fc.property(flatData, fc.bigInt({ min: 0n, max: 2n ** 63n }), fc.boolean(), (data, revision, first) => {
        const prev = first ? null : PREV;
        const sealed = usualSeal('session-1', revision, ID, 'message.appended', data as JsonValue, chained(prev));
        if (sealed !== undefined) expect(sealed).toEqual(general('session-1', revision, ID, 'message.appended', data as JsonValue, prev));
        const usual = Object.keys(data).length <= 16 && Object.keys(data).every((key) => /^[a-zA-Z_é]/.test(key) && key !== '__proto__' && JSON.stringify(key) === `"${key}"`);
        if (usual) expect(sealed).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('gives the general path hash and texts with flat writer metadata (a session message\'s schemaVersion), whatever its keys and values', () => {
    const message = { content: 'message 1', messageId: 'm-1', role: 'assistant', timestamp: '2023-11-14T22:13:21.000Z' };
    const sealed = usualSeal('w-1', 1n, ID, 'message.appended', message, chained(PREV, { schemaVersion: 2 }));
    expect(sealed).toEqual(general('w-1', 1n, ID, 'message.appended', message, PREV, { schemaVersion: 2 }));
    expect(sealed!.metadataText).toBe(`{"prevHash":"${PREV}","schemaVersion":2,"hash":"${sealed!.hash}"}`);
    fc.assert(
      // The ledger refuses writer metadata naming its own keys (ledger.ts), so none is generated here.
      fc.property(flatData, flatData.filter((writer) => !('hash' in writer) && !('prevHash' in writer)), fc.boolean(), (data, writer, first) => {
        const prev = first ? null : PREV;
        const metadata = chained(prev, writer as JsonObject);
        const sealed = usualSeal('session-1', 3n, ID, 'message.appended', data as JsonValue, metadata);
        if (sealed !== undefined) expect(sealed).toEqual(general('session-1', 3n, ID, 'message.appended', data as JsonValue, prev, writer as JsonObject));
        const usual = (keys: string[], most: number) => keys.length <= most && keys.every((key) => /^[a-zA-Z_é]/.test(key) && key !== '__proto__' && JSON.stringify(key) === `"${key}"`);
        if (usual(Object.keys(data), 16) && usual(Object.keys(writer), 15)) expect(sealed).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('leaves every other event to the general path', () => {
    const take = (data: unknown, extra: { stream?: string; id?: string; type?: string; metadata?: unknown } = {}) =>
      usualSeal(extra.stream ?? 's', 0n, extra.id ?? ID, extra.type ?? 't', data as JsonValue, (extra.metadata ?? chained(null)) as JsonObject);
    // Not a flat plain object of JSON primitives: the general path encodes or refuses it as before.
    for (const data of [[1], 'x', 1, null, { a: { b: 1 } }, { a: [1] }, { a: Number.NaN }, { a: Infinity }, { a: () => 1 }, { a: 1n }, { a: new Date(0) }, new Date(0), Object.create({ a: 1 }), { toJSON: () => 'x' }]) {
      expect(take(data)).toBeUndefined();
    }
    expect(take({ '1': 'a', b: 2 })).toBeUndefined(); // JavaScript lists integer-like keys first
    expect(take(JSON.parse('{"__proto__":1}'))).toBeUndefined();
    expect(take({ 'a"b': 1 })).toBeUndefined(); // a key JSON.stringify escapes
    expect(take(Object.fromEntries(Array.from({ length: 17 }, (_, n) => [`k${n}`, n])))).toBeUndefined();
    // Strings the template could not write as they are.
    for (const extra of [{ stream: 's"' }, { id: 'x\\y' }, { type: 't\u0001' }, { type: 'x\ud800' }]) {
      expect(take({ a: 1 }, extra)).toBeUndefined();
    }
    // Metadata that is not flat (the writer's nested values), or has no member at all.
    for (const metadata of [{ prevHash: null, trace: { id: 1 } }, { prevHash: null, tags: ['a'] }, { prevHash: null, '1': 'x' }, {}]) {
      expect(take({ a: 1 }, { metadata })).toBeUndefined();
    }
  });
});

describe('the ledger hands the store the usual event texts', () => {
  it('the data text and the metadata text of each event, for the array the store receives', async () => {
    const memory = createMemoryStore();
    const texts: unknown[] = [];
    const store: EventStore = {
      ...memory,
      appendToStream: (stream, events: EventData[], options) => {
        const sealed = sealedTexts(events);
        texts.push(sealed && { data: sealed.texts, metadata: sealed.metadataTexts, rows: events.map((event) => [JSON.stringify(event.data), JSON.stringify(event.metadata)]) });
        return memory.appendToStream(stream, events, options);
      },
    };
    const ledger = createLedger(store);
    const events: NewEvent[] = [
      { id: newId(), type: 't', data: { b: 1, a: 'x\n"y"' } },
      { id: newId(), type: 't', data: { a: 1 }, metadata: { schemaVersion: 2 } },
      { id: newId(), type: 't', data: { a: { nested: true } } },
    ];
    await ledger.append('s', events, { expectedRevision: 'no_stream' });
    const [batch] = texts as Array<{ data: unknown[]; metadata: unknown[]; rows: string[][] }>;
    expect(batch!.data).toEqual([batch!.rows[0]![0], batch!.rows[1]![0], batch!.rows[2]![0]]);
    expect(batch!.metadata).toEqual([batch!.rows[0]![1], batch!.rows[1]![1], undefined]);
    // The event verifies as the general path hashed it.
    const stored = await memory.readStream('s');
    expect((await ledger.verify({ stream: 's' })).broken).toBeNull();
    expect(stored[0]!.metadata.hash).toBe(chainHash({ stream: 's', revision: 0n, id: events[0]!.id, type: 't', data: events[0]!.data, metadata: { prevHash: null } }));
  });
});
