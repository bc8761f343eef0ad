import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  chainHash,
  createLedger,
  createMemoryStore,
  newId,
  sealedChainHash,
  sealedDataTexts,
  type ChainInput,
  type EventData,
  type EventStore,
  type JsonObject,
  type JsonValue,
} from '@session-ledger/core';

const input = (data: JsonValue, metadata: JsonObject = { prevHash: null, schemaVersion: 2 }): ChainInput => ({
  stream: 'session-1',
  revision: 7n,
  id: 'b3f1c2a4-0000-4000-8000-000000000001',
  type: 'message.appended',
  data,
  metadata,
});

describe('sealedChainHash (the write path: one serialisation of the data for the hash and the row)', () => {
  it('gives chainHash, and the data text JSON.stringify writes, for data in canonical order', () => {
    const data = { content: 'a "quoted"\n line', extra: { hermes: { rowId: 1, timestamp: 1.5 } }, role: 'user', toolCalls: [{ id: 'x' }] };
    const sealed = sealedChainHash(input(data));
    expect(sealed.hash).toBe(chainHash(input(data)));
    expect(sealed.dataText).toBe(JSON.stringify(data));
  });

  it('gives chainHash and no data text for data out of canonical order, and for metadata it cannot sort as is', () => {
    const unsorted = { role: 'user', content: 'x' };
    expect(sealedChainHash(input(unsorted))).toEqual({ hash: chainHash(input(unsorted)), dataText: undefined });
    const digitKeys = { prevHash: null, '10': 1, '9': 2 } as JsonObject; // JavaScript lists '9' first, canonical order '10'
    expect(sealedChainHash(input({ a: 1 }, digitKeys))).toEqual({ hash: chainHash(input({ a: 1 }, digitKeys)), dataText: undefined });
  });

  it('always hashes as chainHash, whatever the data and metadata', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), (data, metadata) => {
        const chained = input(data as JsonValue, { prevHash: 'p', ...(metadata as JsonObject) });
        const sealed = sealedChainHash(chained);
        expect(sealed.hash).toBe(chainHash(chained));
        if (sealed.dataText !== undefined) expect(sealed.dataText).toBe(JSON.stringify(data));
      }),
    );
  });
});

describe('the ledger hands the store each sealed batch with its data texts', () => {
  it('as JSON.stringify of each data in canonical order, for the array and event objects the store receives only', async () => {
    const memory = createMemoryStore();
    const seen: EventData[][] = [];
    const store: EventStore = {
      ...memory,
      appendToStream: (stream, events, options) => {
        seen.push(events);
        return memory.appendToStream(stream, events, options);
      },
    };
    const ledger = createLedger(store);
    const events = [
      { id: newId(), type: 't', data: { a: 1, b: [true, null, 'x'] } },
      { id: newId(), type: 't', data: { b: 1, a: 2 } },
    ];
    await ledger.append('s', events, { expectedRevision: 'no_stream' });
    const sealed = seen[0]!;
    // The second, out of canonical order, is the usual event: its text comes from usualSeal (usualSeal.unit.test.ts).
    expect(sealedDataTexts(sealed)).toEqual([JSON.stringify(events[0]!.data), JSON.stringify(events[1]!.data)]);
    // A copy of the array, or of one of its events, is not what the ledger sealed.
    expect(sealedDataTexts([...sealed])).toBeUndefined();
    expect(sealedDataTexts(sealed.map((event, index) => (index === 0 ? { ...event } : event)))).toBeUndefined();
    expect(sealedDataTexts(events)).toBeUndefined();
  });

  it('not for an array whose events were replaced after sealing', async () => {
    const memory = createMemoryStore();
    let seen: EventData[] = [];
    const ledger = createLedger({ ...memory, appendToStream: (stream, events, options) => ((seen = events), memory.appendToStream(stream, events, options)) });
    await ledger.append('s', [{ id: newId(), type: 't', data: { a: 1 } }], { expectedRevision: 'no_stream' });
    seen[0] = { ...seen[0]!, data: { a: 2 } };
    expect(sealedDataTexts(seen)).toBeUndefined();
  });
});
