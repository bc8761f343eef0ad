import { describe, expect, it } from 'vitest';
import { chainHash, rehash, sha256Hex, type JsonObject, type JsonValue } from '@session-ledger/core';
import { rehashScanned } from '../../packages/core/src/log/rehashScanned.js';
import type { UsualEvent } from '../../packages/core/src/log/usualChainHash.js';

/** What the reference verify makes of an event: rehash's hash and prevHash when the stored hash is the computed one, else null. */
const reference = (event: UsualEvent): { hash: string; prev: unknown } | null => {
  const result = rehash({ ...event, revision: BigInt(event.revision) });
  return 'error' in result || result.stored !== result.hash ? null : { hash: result.hash, prev: result.prev };
};

const base = { stream: 'session-7', revision: 3, id: 'evt-1', type: 'turn.appended' };
const data: JsonObject = { role: 'assistant', n: 3, text: 'A "quoted" reply\nwith é and \u2028.' };
const hex = (char: string) => char.repeat(64);
const PREV = hex('a');
const OTHER = hex('b');

/** An event whose metadata text is `text`, written as the ledger writes it, its hash computed over `metadata` (without hash). */
const eventWith = (metadata: JsonObject, text: (hash: string) => string, content: JsonValue = data): UsualEvent => {
  const hash = chainHash({ ...base, revision: BigInt(base.revision), data: content, metadata });
  return { ...base, data: JSON.stringify(content), metadata: text(hash) };
};
const usual = (prev: string | null, content: JsonValue = data) => eventWith({ prevHash: prev }, (hash) => JSON.stringify({ prevHash: prev, hash }), content);

/** Every prevHash the scan may compare with: the head's (that one, another), null at revision 0, none. */
const expectations = [PREV, OTHER, null, undefined];

const agrees = (event: UsualEvent) => {
  for (const expected of expectations) expect(rehashScanned(event, expected), String(expected)).toEqual(reference(event));
};

describe('rehashScanned: the range scan rehash, as the reference verify', () => {
  it('hashes the usual event as rehash does, with a prevHash and with a null one', () => {
    const event = usual(PREV);
    expect(rehashScanned(event, PREV)).toEqual({ hash: reference(event)!.hash, prev: PREV });
    expect(rehashScanned(usual(null), undefined)).toEqual({ hash: reference(usual(null))!.hash, prev: null });
    agrees(event);
    agrees(usual(null));
  });

  it('refuses a usual text whose stored hash is not the content hash (content or hash changed)', () => {
    const event = usual(PREV);
    for (const tampered of [
      { ...event, data: event.data.replace('assistant', 'assistanT') },
      { ...event, metadata: event.metadata.replace(/.(\x22\})$/, '0$1') },
      { ...event, metadata: event.metadata.replace(PREV, OTHER) },
      { ...event, type: 'turn.edited' },
      { ...event, revision: 4 },
    ]) {
      expect(rehashScanned(tampered, undefined)).toBeNull();
      agrees(tampered);
    }
  });

  it('gives the reference result for metadata texts off the usual frame, rehashed by whoever wrote them', () => {
    const texts: Array<[JsonObject, (hash: string) => string]> = [
      // Same values, other text: white space, key order, an escaped digit, a trailing newline, upper-case hex.
      [{ prevHash: PREV }, (hash) => `{"prevHash": "${PREV}","hash":"${hash}"}`],
      [{ prevHash: PREV }, (hash) => `{"hash":"${hash}","prevHash":"${PREV}"}`],
      [{ prevHash: PREV }, (hash) => `{"prevHash":"\\u0061${PREV.slice(1)}","hash":"${hash}"}`],
      [{ prevHash: PREV }, (hash) => `{"prevHash":"${PREV}","hash":"${hash}"}\n`],
      [{ prevHash: hex('A') }, (hash) => `{"prevHash":"${hex('A')}","hash":"${hash}"}`],
      [{ prevHash: null }, (hash) => `{"prevHash":null,"hash":"${hash.toUpperCase()}"}`],
      // Other values in the usual frame: an escape among the 64 characters, a prevHash of other characters, a duplicate key.
      [{ prevHash: `A${PREV.slice(6)}` }, (hash) => `{"prevHash":"\\u0041${PREV.slice(6)}","hash":"${hash}"}`],
      // An escape JSON.stringify writes the same way: the chain text is the same, the prevHash is not the 64 characters.
      [{ prevHash: `\n${'z'.repeat(62)}` }, (hash) => `{"prevHash":"\\n${'z'.repeat(62)}","hash":"${hash}"}`],
      [{ prevHash: `${'z'.repeat(63)}é` }, (hash) => `{"prevHash":"${'z'.repeat(63)}é","hash":"${hash}"}`],
      [{ prevHash: 'abc' }, (hash) => `{"prevHash":"abc","hash":"${'x'.repeat(51)}","hash":"${hash}"}`],
      [{ prevHash: 'abc', hash: 'x'.repeat(51) }, (hash) => `{"prevHash":"abc","hash":"${'x'.repeat(51)}","hash":"${hash}"}`],
      // Other keys, no prevHash, not an object.
      [{ prevHash: PREV, model: 'm' }, (hash) => JSON.stringify({ prevHash: PREV, hash, model: 'm' })],
      [{}, (hash) => JSON.stringify({ hash })],
      [{}, (hash) => `["${hash}"]`],
    ];
    for (const [metadata, text] of texts) {
      const event = eventWith(metadata, text);
      if (text('h'.repeat(64)).length === 153) expect(event.metadata).toHaveLength(153);
      agrees(event);
    }
    // Some of them verify under the reference (same values, other text): the fast path must not refuse those.
    expect(reference(eventWith({ prevHash: PREV }, texts[2]![1]))).toEqual({ hash: expect.any(String), prev: PREV });
    expect(reference(eventWith(texts[6]![0], texts[6]![1]))).toEqual({ hash: expect.any(String), prev: `A${PREV.slice(6)}` });
    expect(reference(eventWith(texts[4]![0], texts[4]![1]))).toEqual({ hash: expect.any(String), prev: hex('A') });
  });

  it('gives the reference result for data the template does not take (nested, digit keys, __proto__, unsorted escapes, numbers)', () => {
    const contents: JsonValue[] = [
      { b: { z: 1, a: [1, { y: 2, x: 3 }] }, a: 'x' },
      { '10': 'ten', '9': 'nine', a: 1 },
      JSON.parse('{"__proto__":{"x":1},"a":2}') as JsonValue,
      { z: 'é\u0000\ud800', a: '\\"', m: -0, n: 1e21, o: 0.1, p: true, q: null },
      // No escape in the stored text: written member by member.
      { h: -5e-7, b: 1e21, a: -0, c: 0.1, d: true, e: null, f: false, g: 'é 中文 😀 \u007f', A: '', 'key with space': 1 },
      'a string',
      [3, 2, 1],
      null,
      {},
    ];
    for (const content of contents) {
      agrees(usual(PREV, content));
      agrees(usual(null, content));
    }
    // Stored data text that JSON.stringify would not write: same values, the same hash.
    const event = usual(PREV, { n: 1, role: 'r' });
    for (const text of ['{"role":"r","n":1.0}', '{ "n" : 1 , "role" : "\\u0072" }', '{"n":1,"role":"x","role":"r"}']) {
      const variant = { ...event, data: text };
      expect(rehashScanned(variant, PREV)).toEqual(reference(event));
      agrees(variant);
    }
  });

  it('refuses data whose stored hash covers a text other than the canonical one (what a copy with sorted keys would write for digit keys, __proto__, an infinite number)', () => {
    // Each stored hash is over the text JSON.stringify writes for the copy: not the canonical text, so the reference refuses it (or throws).
    const forged = (dataText: string, copyText: string): UsualEvent => {
      const hash = sha256Hex(`{"data":${copyText},"id":"${base.id}","metadata":{"prevHash":"${PREV}"},"revision":"3","stream":"${base.stream}","type":"${base.type}"}`);
      return { ...base, data: dataText, metadata: `{"prevHash":"${PREV}","hash":"${hash}"}` };
    };
    const digits = forged('{"10":"ten","9":"nine"}', '{"9":"nine","10":"ten"}');
    expect(reference(digits)).toBeNull();
    agrees(digits);
    const proto = forged('{"a":1,"__proto__":"x"}', '{"a":1}');
    expect(reference(proto)).toBeNull();
    agrees(proto);
    // Written member by member only without a backslash and with well-formed characters: else the value would not be its JSON text.
    const quoted = forged('{"a":"x\\"y"}', '{"a":"x"y"}');
    expect(reference(quoted)).toBeNull();
    agrees(quoted);
    const surrogate = forged('{"a":"\ud800"}', '{"a":"\ud800"}');
    expect(surrogate.data).toHaveLength(9);
    expect(reference(surrogate)).toBeNull();
    agrees(surrogate);
    // A number past a double reads as Infinity: not hashed, a json break (session 26; it threw before).
    const infinite = forged('{"n":1e999}', '{"n":null}');
    expect(reference(infinite)).toBeNull();
    agrees(infinite);
  });

  it('reports unreadable text as rehash does: a number past the JSON range (Infinity), cut JSON', () => {
    const event = usual(PREV);
    for (const broken of [{ ...event, data: '{"n":1e999}' }, { ...event, data: '{"n":' }, { ...event, metadata: event.metadata.slice(0, -1) }]) {
      expect(reference(broken)).toBeNull();
      agrees(broken);
    }
  });
});
