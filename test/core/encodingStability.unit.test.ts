import { describe, expect, it } from 'vitest';
import { canonicalJson, chainHash, deterministicId, sha256Hex } from '@session-ledger/core';
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

  it('chainHash is the sha256 of the canonical event', () => {
    const input = { stream: 'session-a', revision: 5n, id: 'u', type: 't', data: { x: [1, { b: 2, a: 1 }] }, metadata: { schemaVersion: 2, prevHash: null } };
    expect(chainHash(input)).toBe('cf25ecc6749f8bcdcdaa30564da5b9391225914930c2eb23f34e5455e3667f5a');
    expect(chainHash(input)).toBe(sha256Hex(canonicalJson({ ...input, revision: '5' })));
  });
});
