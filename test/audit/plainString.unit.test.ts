import { describe, expect, it } from 'vitest';
import { chainHash, leafInput, rehash, sha256Hex } from '@session-ledger/core';
import { isPlainString } from '../../packages/core/src/log/plainString.js';
import { rehashScanned } from '../../packages/core/src/log/rehashScanned.js';
import { scanLeafInput } from '../../packages/core/src/log/scanLeafInput.js';
import type { UsualEvent } from '../../packages/core/src/log/usualChainHash.js';

/** Hostile strings: each character JSON.stringify escapes, lone surrogates, and some it does not escape. */
const hostile = ['ev"1', 'a\\b', 'x\ny', 'tab\t', '\u0000', '\u001f', 'lone \ud800', 'lone \udc00 low', '\udc00\ud800', 'end \ud83d'];
const plain = ['session-7', 'evt-01J', 'turn.appended', '2026-12-01T12:00:00.000Z', '', 'é 中文 😀 \u007f \u2028 \u2029', ' spaced / slashed '];

describe('isPlainString: strings JSON.stringify writes as they are between quotes', () => {
  it('holds exactly for them, over every UTF-16 code unit and the hostile strings', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      const text = `a${String.fromCharCode(code)}b`;
      expect(isPlainString(text), `U+${code.toString(16)}`).toBe(JSON.stringify(text) === `"${text}"`);
    }
    for (const text of [...hostile, ...plain]) expect(isPlainString(text), JSON.stringify(text)).toBe(JSON.stringify(text) === `"${text}"`);
    expect(plain.every(isPlainString)).toBe(true);
  });

  it('keeps scanLeafInput the leaf input for hostile streams and created times', () => {
    const hash = sha256Hex('x');
    for (const stream of [...hostile, ...plain]) {
      for (const created of [...hostile, ...plain]) {
        expect(scanLeafInput(5, 9, stream, 3, hash, created)).toBe(leafInput({ index: 5, position: 9n, stream, revision: 3n, hash, created }));
      }
    }
  });
});

describe('rehashScanned with hostile ids, streams and types', () => {
  const PREV = 'a'.repeat(64);
  const data = '{"n":3,"role":"assistant"}';
  const reference = (event: UsualEvent): { hash: string; prev: unknown } | null => {
    const result = rehash({ ...event, revision: BigInt(event.revision) });
    return 'error' in result || result.stored !== result.hash ? null : { hash: result.hash, prev: result.prev };
  };
  const fields = (value: string) => [
    { stream: value, id: 'evt-1', type: 'turn.appended' },
    { stream: 'session-7', id: value, type: 'turn.appended' },
    { stream: 'session-7', id: 'evt-1', type: value },
  ];

  it('hashes them as the reference does', () => {
    for (const value of [...hostile, ...plain]) {
      for (const base of fields(value)) {
        const hash = chainHash({ ...base, revision: 3n, data: JSON.parse(data), metadata: { prevHash: PREV } });
        const event = { ...base, revision: 3, data, metadata: `{"prevHash":"${PREV}","hash":"${hash}"}` };
        expect(reference(event), JSON.stringify(value)).toEqual({ hash, prev: PREV });
        expect(rehashScanned(event, PREV), JSON.stringify(value)).toEqual({ hash, prev: PREV });
      }
    }
  });

  it('refuses a hash forged over the strings written unescaped between quotes', () => {
    for (const value of hostile) {
      for (const base of fields(value)) {
        const hash = sha256Hex(`{"data":${data},"id":"${base.id}","metadata":{"prevHash":"${PREV}"},"revision":"3","stream":"${base.stream}","type":"${base.type}"}`);
        const event = { ...base, revision: 3, data, metadata: `{"prevHash":"${PREV}","hash":"${hash}"}` };
        expect(reference(event), JSON.stringify(value)).toBeNull();
        expect(rehashScanned(event, PREV), JSON.stringify(value)).toBeNull();
      }
    }
  });
});
