import { describe, expect, it } from 'vitest';
import { nodeSpans } from '@session-ledger/core';

/** Every subtree of 2^level leaves (level >= minLevel) whose last leaf lies in [from, to), one by one. */
const bruteForce = (from: number, to: number, minLevel: number): string[] => {
  const out: string[] = [];
  for (let level = minLevel; 2 ** level <= to; level += 1) {
    for (let index = 0; (index + 1) * 2 ** level - 1 < to; index += 1) {
      if ((index + 1) * 2 ** level - 1 >= from) out.push(`${level}/${index}`);
    }
  }
  return out;
};

describe('nodeSpans: the stored subtrees a pass over leaves [from, to) completes', () => {
  it('names exactly the subtrees whose last leaf lies in the span, level by level', () => {
    for (let from = 0; from < 70; from += 1) {
      for (let to = from + 1; to < 140; to += 3) {
        for (const minLevel of [1, 4]) {
          const spans = nodeSpans(from, to, minLevel).flatMap(({ level, first, last }) => Array.from({ length: last - first + 1 }, (_, n) => `${level}/${first + n}`));
          expect(spans, `${from}..${to} from level ${minLevel}`).toEqual(bruteForce(from, to, minLevel));
        }
      }
    }
  });
});
