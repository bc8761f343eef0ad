import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { CONTENT_PATTERN, SELECTOR_PATTERN } from '@session-ledger/memory';
import { cleanContent, cleanSelector } from '../../packages/memory/src/validate.js';

/**
 * The HTTP document publishes memory entry text as CONTENT_PATTERN, and the server applies it; the
 * ledger itself refuses by cleanContent. They must agree on every text, or the document says one
 * thing and the server does another (outside test, session 30). Every string up to five characters
 * over the characters the rules turn on: § and the white space of Python's strip, of JavaScript's
 * trim, and of both, with and without the `u` flag JSON Schema validators use.
 */
const ALPHABET = ['a', '§', ' ', '\n', '\r', '\t', '\x1c', '\x85', '\xa0', '\ufeff', '\u2028'];

const everyText = function* (length: number, prefix = ''): Generator<string> {
  yield prefix;
  if (length > 0) for (const char of ALPHABET) yield* everyText(length - 1, prefix + char);
};

describe('CONTENT_PATTERN and SELECTOR_PATTERN', () => {
  it('accept exactly the texts cleanContent and cleanSelector take', () => {
    const patterns = [new RegExp(CONTENT_PATTERN), new RegExp(CONTENT_PATTERN, 'u'), new RegExp(SELECTOR_PATTERN), new RegExp(SELECTOR_PATTERN, 'u')];
    const disagreements: unknown[] = [];
    let seen = 0;
    for (const text of new Set(everyText(5))) {
      seen++;
      const content = E.isRight(cleanContent(text, 'add'));
      const selector = E.isRight(cleanSelector(text, 'remove'));
      const verdicts = patterns.map((pattern) => pattern.test(text));
      if (verdicts.some((verdict, index) => verdict !== (index < 2 ? content : selector))) disagreements.push({ text, content, selector, verdicts });
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
    expect(seen).toBe(1 + 11 + 11 ** 2 + 11 ** 3 + 11 ** 4 + 11 ** 5);
  });
});
