import { describe, expect, it } from 'vitest';
import { marksOf, parseQuery } from '@session-ledger/read-models';

describe('parseQuery', () => {
  it('quotes every term, so FTS5 operators and quotes are text; short terms are kept apart', () => {
    expect(parseQuery('NEAR( a "x" AND -flag')).toEqual({ match: '"NEAR(" AND """x""" AND "AND" AND "-flag"', short: ['a'] });
  });

  it('splits on control characters as on spaces', () => {
    expect(parseQuery('foo\u0000bar\u001bbaz')).toEqual({ match: '"foo" AND "bar" AND "baz"', short: [] });
  });

  it('counts code points: three CJK characters or emoji are a term', () => {
    expect(parseQuery('東京都 😀😀😀').match).toBe('"東京都" AND "😀😀😀"');
  });

  it('refuses a query with no term of 3 characters', () => {
    for (const q of ['ab', 'a b', '"', '  ', '東京']) expect(() => parseQuery(q)).toThrow(expect.objectContaining({ type: 'invalid_input' }));
  });
});

describe('marksOf', () => {
  it('takes the markers out and keeps UTF-16 offsets', () => {
    expect(marksOf('😀 \u0002hit\u0003 and \u0002more\u0003')).toEqual({ snippet: '😀 hit and more', marks: [[3, 6], [11, 15]] });
  });

  it('merges adjacent marks (one match made of several trigram tokens)', () => {
    expect(marksOf('x\u0002ab\u0003\u0002cd\u0003y')).toEqual({ snippet: 'xabcdy', marks: [[1, 5]] });
  });
});
