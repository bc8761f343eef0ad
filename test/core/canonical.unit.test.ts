import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf, isLedgerError } from '@session-ledger/core';

describe('canonical JSON', () => {
  it('sorts object keys at every depth and has no white space', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } })).toBe('{"a":{"c":"x","d":[true,null]},"b":1}');
  });

  it('encodes equal values the same whatever their key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
        expect(digestOf(reversed)).toBe(digestOf(record));
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips through JSON.parse to an equal value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 200 },
    );
  });

  it('leaves out keys whose value is undefined', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
  });

  it('refuses what JSON cannot carry: NaN, Infinity, functions, bigint', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, { f: () => 1 }, [1n]]) {
      let caught: unknown;
      try {
        canonicalJson(value);
      } catch (error) {
        caught = error;
      }
      expect(isLedgerError(caught, 'invalid_input')).toBe(true);
    }
  });

  it('digests carry their algorithm', () => {
    expect(digestOf({ a: 1 })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
