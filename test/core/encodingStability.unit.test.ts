import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, chainHash, chainText, deterministicId, isCanonicalAsIs, sha256Hex, sortedAsIs } from '@session-ledger/core';
import { createHash } from 'node:crypto';

/**
 * Values computed by the first (straightforward) encoders: ids, canonical JSON and chain hashes are
 * stored, so a faster encoder must give exactly these bytes, or stored chains stop verifying.
 */
describe('stored encodings stay byte-identical', () => {
  it('deterministicId gives the ids it always gave', () => {
    expect(deterministicId('s0', 'message', 0n, 0)).toBe('cb8d93b5-66c0-5776-8607-836cad815d99');
  });

  it('deterministicId sets the version and variant bits over sha256 of the joined parts', () => {
    for (let n = 0; n < 200; n += 1) {
      const digest = createHash('sha256').update([`p${n}`, 'x', String(n)].join('\u0000')).digest();
      digest[6] = (digest[6]! & 0x0f) | 0x50;
      digest[8] = (digest[8]! & 0x3f) | 0x80;
      const hex = digest.subarray(0, 16).toString('hex');
      const expected = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      expect(deterministicId(`p${n}`, 'x', n)).toBe(expected);
    }
  });

  it('canonicalJson sorts keys, drops undefined members and escapes like JSON.stringify', () => {
    expect(canonicalJson({ b: 1, a: [1, 'x', null, { z: true, y: undefined }], c: 'é\u2028"' })).toBe('{"a":[1,"x",null,{"z":true}],"b":1,"c":"é\u2028\\""}');
    expect(canonicalJson([1, 2, [3]])).toBe('[1,2,[3]]');
    expect(canonicalJson({ a: {} })).toBe('{"a":{}}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/Not a JSON number/);
    expect(() => canonicalJson([undefined])).toThrow(/Not a JSON value/);
  });

  // The first encoder: sort, drop undefined, recurse. Flat plain objects now go through native
  // JSON.stringify (already sorted, or with the sorted keys as its property list), others key by key.
  const reference = (value: unknown): string => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort().filter((key) => record[key] !== undefined);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${reference(record[key])}`).join(',')}}`;
  };

  it('canonicalJson gives what the first encoder gave, whichever path (native or key by key) it takes', () => {
    const flat = fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constant(undefined)));
    fc.assert(
      fc.property(fc.oneof(flat, fc.jsonValue()), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
        const sorted = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value;
        expect(canonicalJson(sorted)).toBe(reference(value));
      }),
      { numRuns: 500 },
    );
    // Not plain objects: no toJSON is called and nothing is unboxed (what the key-by-key encoder did).
    expect(canonicalJson(new Date(0))).toBe('{}');
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":{}}');
    expect(canonicalJson(Object.assign(Object.create(null) as object, { b: 1, a: 'x' }))).toBe('{"a":"x","b":1}');
    expect(canonicalJson({ b: -0, a: 1e21, c: 'a\u0000"' })).toBe('{"a":1e+21,"b":0,"c":"a\\u0000\\""}');
    // Numeric keys: JavaScript lists "9" before "10", canonical order is "10" before "9" (chain hashes of
    // tool arguments and extras with such keys depend on it), on the native path and the key-by-key one.
    expect(canonicalJson({ '9': 1, '10': 2, a: 'x' })).toBe('{"10":2,"9":1,"a":"x"}');
    expect(canonicalJson({ '9': [1], '10': { '2': 0, '11': 1 } })).toBe('{"10":{"11":1,"2":0},"9":[1]}');
  });

  it('a value in canonical order at every depth is written by one native JSON.stringify, with the first encoder\'s bytes', () => {
    // Rebuilt with every object's keys in code-unit order (as writers build event data), at every depth.
    const sortedDeep = (value: unknown): unknown => {
      if (value === null || typeof value !== 'object') return value;
      if (Array.isArray(value)) return value.map(sortedDeep);
      const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      // Integer-like keys are listed first by JavaScript whatever the insertion order: such an object stays unsorted.
      return Object.fromEntries(entries.map(([key, item]) => [key, sortedDeep(item)]));
    };
    const listedInOrder = (value: unknown): boolean => {
      if (value === null || typeof value !== 'object') return true;
      if (Array.isArray(value)) return value.every(listedInOrder);
      const keys = Object.keys(value);
      return keys.every((key, index) => index === 0 || keys[index - 1]! < key) && Object.values(value).every(listedInOrder);
    };
    let native = 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const sorted = sortedDeep(value);
        expect(isCanonicalAsIs(sorted)).toBe(listedInOrder(sorted));
        if (isCanonicalAsIs(sorted)) native += 1;
        expect(canonicalJson(sorted)).toBe(reference(value));
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 500 },
    );
    expect(native).toBeGreaterThan(250);
    expect(isCanonicalAsIs({ a: { b: [1, { c: null, d: 'x' }] }, e: { f: { g: true } } })).toBe(true);
    const data = { content: 'hi', extra: { hermes: { columns: { platform_message_id: null }, rowId: 7, timestamp: 1.5 } }, role: 'user' };
    expect(chainText({ stream: 's', revision: 0n, id: 'i', type: 't', data, metadata: { prevHash: null } })).toBe(
      reference({ stream: 's', revision: '0', id: 'i', type: 't', data, metadata: { prevHash: null } }),
    );
    // Not as is, at any depth: unsorted keys, a hole, undefined in an array, a non-finite number, a Date,
    // an array with its own toJSON; each takes the key-by-key encoder (or its refusal).
    const withToJson = Object.assign([1], { toJSON: () => 'x' });
    // eslint-disable-next-line no-sparse-arrays
    for (const value of [{ a: { c: 1, b: 2 } }, { a: [1, , 2] }, { a: [undefined] }, { a: { b: Number.POSITIVE_INFINITY } }, { a: new Date(0) }, { a: withToJson }]) {
      expect(isCanonicalAsIs(value)).toBe(false);
    }
    expect(canonicalJson({ a: withToJson })).toBe('{"a":[1]}');
    expect(canonicalJson({ a: { c: 1, b: 2 } })).toBe('{"a":{"b":2,"c":1}}');
  });

  it('the chain text sorts metadata keys in a copy and still writes the first encoder\'s bytes, whatever the metadata', () => {
    const data = { content: 'x', extra: { hermes: { rowId: 1 } }, role: 'user' };
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)), { maxKeys: 6 }), (given) => {
        const metadata = { prevHash: null, ...given } as never;
        const input = { stream: 's', revision: 3n, id: 'i', type: 't', data, metadata };
        expect(chainText(input)).toBe(reference({ stream: 's', revision: '3', id: 'i', type: 't', data, metadata }));
      }),
      { numRuns: 300 },
    );
    // The ledger's order (prevHash first) is sorted in the copy; integer-like keys and unsorted nested values are not.
    expect(Object.keys(sortedAsIs({ prevHash: null, schemaVersion: 2, importedFrom: 'hermes' })!)).toEqual(['importedFrom', 'prevHash', 'schemaVersion']);
    expect(sortedAsIs({ b: 1, '10': 2, '9': 3 })).toBeUndefined();
    expect(sortedAsIs({ b: 1, a: { d: 1, c: 2 } })).toBeUndefined();
    const proto = JSON.parse('{"b": 1, "__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(sortedAsIs(proto)).toBeUndefined();
    expect(chainText({ stream: 's', revision: 0n, id: 'i', type: 't', data, metadata: proto as never })).toBe(
      reference({ stream: 's', revision: '0', id: 'i', type: 't', data, metadata: proto }),
    );
    expect(chainText({ stream: 's', revision: 0n, id: 'i', type: 't', data, metadata: { z: 1, '10': 2, '9': [3] } })).toBe(
      reference({ stream: 's', revision: '0', id: 'i', type: 't', data, metadata: { z: 1, '10': 2, '9': [3] } }),
    );
  });

  it('the chain text sorts the data\'s own keys in a copy too and still writes the first encoder\'s bytes, whatever the data', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)), { maxKeys: 6 }), (data) => {
        const input = { stream: 's', revision: 3n, id: 'i', type: 't', data: data as never, metadata: { prevHash: null } };
        expect(chainText(input)).toBe(reference({ stream: 's', revision: '3', id: 'i', type: 't', data, metadata: { prevHash: null } }));
      }),
      { numRuns: 300 },
    );
    // A writer's usual order (role before text, not sorted), an integer-like key, `__proto__`, a nested unsorted object.
    const proto = JSON.parse('{"b": 1, "__proto__": {"x": 1}}') as Record<string, unknown>;
    for (const data of [{ role: 'assistant', n: 1, text: 'hi\u2028"' }, { b: 1, '10': 2, '9': 3 }, proto, { b: 1, a: { d: 1, c: 2 } }]) {
      expect(chainText({ stream: 's', revision: 0n, id: 'i', type: 't', data: data as never, metadata: { prevHash: null } })).toBe(
        reference({ stream: 's', revision: '0', id: 'i', type: 't', data, metadata: { prevHash: null } }),
      );
    }
  });

  it('chainHash is the sha256 of the canonical event', () => {
    const input = { stream: 'session-a', revision: 5n, id: 'u', type: 't', data: { x: [1, { b: 2, a: 1 }] }, metadata: { schemaVersion: 2, prevHash: null } };
    expect(chainHash(input)).toBe('cf25ecc6749f8bcdcdaa30564da5b9391225914930c2eb23f34e5455e3667f5a');
    expect(chainHash(input)).toBe(sha256Hex(canonicalJson({ ...input, revision: '5' })));
  });
});
