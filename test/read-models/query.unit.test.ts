import { describe, expect, it } from 'vitest';
import { marksOf, parseQuery, parseSince } from '@session-ledger/read-models';

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

describe('parseSince', () => {
  const now = new Date('2026-03-08T12:00:00.000Z');

  it('takes a duration back from now, by the shared duration parser', () => {
    expect(parseSince('--since', '7d', now).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(parseSince('since', ' 90m ', now).toISOString()).toBe('2026-03-08T10:30:00.000Z');
  });

  it('takes an ISO time or date, any offset, as UTC', () => {
    expect(parseSince('since', '2026-03-01T10:00:00+02:00', now).toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(parseSince('since', '2026-03-01', now).toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('refuses a duration reaching past the earliest representable time (it would filter out everything)', () => {
    expect(() => parseSince('since', '99999999999d', now)).toThrow(expect.objectContaining({ type: 'invalid_input' }));
    expect(parseSince('since', '36500d', now).getUTCFullYear()).toBe(1926);
  });

  // Outside test, session 23: 2026-11-31 was taken as 2026-12-01, and 2026-02-30 as 2026-03-02.
  it('refuses a day the calendar does not have, never rolling it over; takes 29 February of a leap year', () => {
    for (const text of ['2026-11-31T00:00:00Z', '2026-02-30', '2026-02-29', '2100-02-29', '2026-04-31T10:00']) {
      expect(() => parseSince('--since', text, now)).toThrow(expect.objectContaining({ type: 'invalid_input' }));
    }
    expect(parseSince('since', '2028-02-29', now).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(parseSince('since', '2000-02-29', now).toISOString()).toBe('2000-02-29T00:00:00.000Z');
  });

  it('refuses anything else as invalid_input naming the field', () => {
    for (const text of ['yesterday', '7', '7 days', '', '2026-13-45', 'March 1']) {
      expect(() => parseSince('--since', text, now)).toThrow(expect.objectContaining({ type: 'invalid_input' }));
    }
  });
});
