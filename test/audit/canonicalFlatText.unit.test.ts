import { describe, expect, it } from 'vitest';
import { canonicalJson, rehash, sha256Hex } from '@session-ledger/core';
import { canonicalFlatText } from '../../packages/core/src/log/canonicalFlatText.js';
import { rehashScanned } from '../../packages/core/src/log/rehashScanned.js';
import type { UsualEvent } from '../../packages/core/src/log/usualChainHash.js';

/** The canonical text of what a stored data text parses to: what the reference verify hashes (undefined: it does not parse). */
const oracle = (text: string): string | undefined => {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return undefined;
  }
};

/** canonicalFlatText never gives a text the reference would not hash: its answer is the oracle's or none. */
const sound = (text: string): string | undefined => {
  const out = canonicalFlatText(text);
  if (out !== undefined) expect(out, JSON.stringify(text)).toBe(oracle(text));
  return out;
};

const LONG = 'The assistant replied with a short paragraph about the weather and asked a question. '.repeat(3);

/** Hostile texts, each one a guard of canonicalFlatText exists for: none may be taken as it is. */
const hostile: Array<[string, string]> = [
  ['keys out of order', '{"role":"assistant","n":3}'],
  ['a duplicate key (the last one wins)', '{"n":1,"n":2}'],
  ['a duplicate key among others', '{"role":"r","n":1,"a":true,"n":2}'],
  ['white space', '{"n": 1}'],
  ['white space outside', ' {"n":1}'],
  ['a trailing newline', '{"n":1}\n'],
  ['an escape JSON.stringify would not write', '{"a":"\\u0041"}'],
  ['an escaped slash', '{"a":"x\\/y"}'],
  ['an escape in a key', '{"\\u0061":1}'],
  ['a raw control character (no JSON)', '{"a":"x\ny"}'],
  ['a raw tab in a key (no JSON)', '{"a\t":1}'],
  ['a lone high surrogate', '{"a":"\ud800"}'],
  ['a lone low surrogate', '{"a":"x\udc00"}'],
  ['surrogates in the wrong order', '{"a":"\udc00\ud800"}'],
  ['minus zero', '{"a":-0}'],
  ['a fraction', '{"a":1.0}'],
  ['an exponent', '{"a":1e2}'],
  ['a leading zero (no JSON)', '{"a":01}'],
  ['a plus sign (no JSON)', '{"a":+1}'],
  ['16 digits, past 2^53', '{"a":9007199254740993}'],
  ['17 digits', '{"a":12345678901234567}'],
  ['a nested object', '{"a":{"c":1,"b":2}}'],
  ['an array', '{"a":[1.0]}'],
  ['a trailing comma (no JSON)', '{"a":1,}'],
  ['a missing value (no JSON)', '{"a":}'],
  ['a broken literal (no JSON)', '{"a":tru}'],
  ['a second object after it (no JSON)', '{"a":1}{"b":2}'],
  ['a closing brace in the middle (no JSON)', '{"a":1},"b":2}'],
  ['an unclosed string (no JSON)', '{"a":"x}'],
  ['not an object', '1.0'],
  ['an array of members', '["a", 1]'],
];

describe('canonicalFlatText: the canonical text of flat stored data, without a parse', () => {
  it('cuts and sorts the usual stored text (the writer key order, long plain strings, integers, literals)', () => {
    expect(canonicalFlatText(`{"role":"assistant","n":3,"text":"${LONG}"}`)).toBe(`{"n":3,"role":"assistant","text":"${LONG}"}`);
    const cases = [
      '{}',
      '{"a":1}',
      '{"n":3,"role":"assistant"}',
      '{"z":true,"y":null,"x":false,"w":-12,"v":0,"u":"","t":999999999999999,"s":-999999999999999}',
      '{"é":"中文 😀 \u007f \u2028","e":"é","E":"x","":"empty key","A":"a"}',
      // Integer-like keys and __proto__: JSON.parse makes them own keys, and the canonical order is still the code units'.
      '{"b":1,"10":"ten","9":"nine","__proto__":"p","_":0}',
      '{"__proto__":1}',
    ];
    for (const text of cases) expect(sound(text), text).toBe(oracle(text));
  });

  it('takes none of the hostile texts as it is, and gives the canonical text or nothing for each', () => {
    for (const [why, text] of hostile) {
      const out = sound(text);
      expect(out === undefined || out !== text, why).toBe(true);
    }
    // The out-of-order one is sorted, not refused.
    expect(canonicalFlatText(hostile[0]![1])).toBe('{"n":3,"role":"assistant"}');
  });

  it('agrees with the canonical encoder over random texts near the accepted form', () => {
    // A small deterministic generator (xorshift): members from pieces that are canonical and pieces that are not.
    let seed = 0x9e3779b9;
    const random = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const keysPool = ['"a"', '"b"', '"ab"', '"B"', '""', '"é"', '"😀"', '"10"', '"9"', '"__proto__"', '"a\\"b"', '"\ud800"', '"x\n"', 'a'];
    const values = ['1', '0', '-0', '-7', '1.5', '1e3', '007', '123456789012345', '1234567890123456', 'true', 'false', 'null', '"x"', '""', '"\\n"', '"\udc00"', '"😀"', '[]', '{}', 'tru', '"x', ' 1'];
    let taken = 0;
    for (let trial = 0; trial < 5000; trial += 1) {
      const members = Array.from({ length: random(5) }, () => `${keysPool[random(keysPool.length)]}:${values[random(values.length)]}`);
      const text = `{${members.join(random(20) === 0 ? ', ' : ',')}}`;
      if (sound(text) !== undefined) taken += 1;
    }
    // The generator reaches the accepted form often enough for this to test it.
    expect(taken).toBeGreaterThan(500);
  });
});

describe('rehashScanned with stored data texts a forger wrote', () => {
  const base = { stream: 'session-7', revision: 3, id: 'evt-1', type: 'turn.appended' };
  const PREV = 'a'.repeat(64);
  const reference = (event: UsualEvent): { hash: string; prev: unknown } | null => {
    const result = rehash({ ...event, revision: BigInt(event.revision) });
    return 'error' in result || result.stored !== result.hash ? null : { hash: result.hash, prev: result.prev };
  };
  /** An event whose stored hash is over the chain text with the data text as stored (not its canonical text). */
  const forged = (dataText: string): UsualEvent => {
    const hash = sha256Hex(`{"data":${dataText},"id":"${base.id}","metadata":{"prevHash":"${PREV}"},"revision":"3","stream":"${base.stream}","type":"${base.type}"}`);
    return { ...base, data: dataText, metadata: `{"prevHash":"${PREV}","hash":"${hash}"}` };
  };

  it('refuses each hostile text whose hash covers the text itself, as the reference does', () => {
    for (const [why, text] of hostile) {
      const event = forged(text);
      expect(reference(event), why).toBeNull();
      for (const expected of [PREV, undefined]) expect(rehashScanned(event, expected), why).toBeNull();
    }
  });

  it('gives the reference hash for every text it takes, integer-like keys and __proto__ included', () => {
    for (const text of ['{}', '{"z":true,"y":null,"x":false,"w":-12,"v":0}', '{"é":"中文 😀 \u007f \u2028","e":"é","":"empty key"}', '{"b":1,"10":"ten","9":"nine","__proto__":"p","_":0}', '{"__proto__":1}']) {
      expect(canonicalFlatText(text), text).toBeDefined();
      const hash = sha256Hex(`{"data":${canonicalJson(JSON.parse(text))},"id":"${base.id}","metadata":{"prevHash":"${PREV}"},"revision":"3","stream":"${base.stream}","type":"${base.type}"}`);
      const event = { ...base, data: text, metadata: `{"prevHash":"${PREV}","hash":"${hash}"}` };
      expect(reference(event), text).toEqual({ hash, prev: PREV });
      expect(rehashScanned(event, PREV), text).toEqual({ hash, prev: PREV });
    }
  });

  it('accepts the usual text (keys in the writer order) with the reference hash', () => {
    const event = forged(`{"n":3,"role":"assistant","text":"${LONG}"}`);
    const stored = { ...event, data: `{"role":"assistant","n":3,"text":"${LONG}"}` };
    expect(reference(stored)).not.toBeNull();
    expect(rehashScanned(stored, PREV)).toEqual(reference(stored));
  });
});
