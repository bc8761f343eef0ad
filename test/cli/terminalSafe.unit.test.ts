import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { terminalSafe } from '@session-ledger/cli';

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|\p{Cs}/u;

describe('terminalSafe: the one escape of everything the CLI prints', () => {
  it('escapes C0 (ESC, BEL, CR, NUL), DEL, C1, bidi controls, separators, BOM and tag characters as \\uXXXX', () => {
    expect(terminalSafe('a\u001b]52;c;x\u0007b\rc\u0000d\u007fe\u009bf\u0085g')).toBe('a\\u001b]52;c;x\\u0007b\\u000dc\\u0000d\\u007fe\\u009bf\\u0085g');
    expect(terminalSafe('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c')).toBe(
      '\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c',
    );
    expect(terminalSafe('\u2028\u2029\ufeff\ufff9\u206a')).toBe('\\u2028\\u2029\\ufeff\\ufff9\\u206a');
    expect(terminalSafe('x\u{e0041}y\ud800z')).toBe('x\\udb40\\udc41y\\ud800z');
  });

  it('keeps newline and tab as layout, and escapes them inside a field', () => {
    expect(terminalSafe('a\tb\nc')).toBe('a\tb\nc');
    expect(terminalSafe('a\tb\nc', 'field')).toBe('a\\u0009b\\u000ac');
  });

  it('leaves ordinary text alone: accents, CJK, emoji with joiners, right-to-left script', () => {
    const text = 'café 日本語 👩‍👩‍👧 مرحبا שלום \\ "quoted"';
    expect(terminalSafe(text)).toBe(text);
  });

  it('turns any JSON text into JSON that parses to the same value, with no unsafe code point left', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (binary, graphemes) => {
        for (const value of [binary, { text: graphemes, nested: [binary] }]) {
          for (const json of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
            const safe = terminalSafe(json);
            expect(UNSAFE.test(safe)).toBe(false);
            expect(JSON.parse(safe)).toEqual(value);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
