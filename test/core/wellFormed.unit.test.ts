import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate, illFormedPath, validateEvents } from '@session-ledger/core';

const ID = '00000000-0000-4000-8000-000000000001';

describe('well-formed UTF-16 only', () => {
  it('tells a lone high or low surrogate from a pair', () => {
    expect(hasLoneSurrogate('a\ud800')).toBe(true);
    expect(hasLoneSurrogate('\ud800a')).toBe(true);
    expect(hasLoneSurrogate('a\udc00')).toBe(true);
    expect(hasLoneSurrogate('\udc00\ud800')).toBe(true);
    expect(hasLoneSurrogate('\ud834\udd1e')).toBe(false);
    expect(hasLoneSurrogate('plain \u00e9 \ufffd')).toBe(false);
  });

  it('names the path of the first ill-formed string, key or value, or null', () => {
    expect(illFormedPath({ a: [1, { b: 'ok' }, { c: 'x\ud800' }] }, 'data')).toBe('data.a[2].c');
    expect(illFormedPath({ 'two words': '\udc00' }, '$')).toBe('$["two words"]');
    expect(illFormedPath({ ['k\udc00']: 1 }, 'metadata')).toBe('metadata (a key)');
    expect(illFormedPath('\ud800', 'type')).toBe('type');
    expect(illFormedPath({ a: ['\ud834\udd1e', null, 3, true] }, 'data')).toBeNull();
  });

  it('every store refuses an event whose type, data or metadata holds one (validateEvents), naming where', () => {
    const refused = (event: Parameters<typeof validateEvents>[0][number]) => {
      try {
        validateEvents([event]);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ id: ID, type: 't\ud800', data: {} })).toContain('the type of a "t\\ud800" event');
    expect(refused({ id: ID, type: 't', data: { text: ['\udc00'] } })).toContain('the data.text[0] of a "t" event');
    expect(refused({ id: ID, type: 't', data: {}, metadata: { note: '\ud800' } })).toContain('metadata.note');
    expect(() => validateEvents([{ id: ID, type: 't', data: { text: '\ud834\udd1e' } }])).not.toThrow();
  });

  it('a key named __proto__ anywhere is refused the same way (JavaScript readers would drop it and its value)', () => {
    const parsed = JSON.parse('{"keep":1,"calls":[{"id":"c1","__proto__":{"x":1}}]}') as unknown;
    expect(illFormedPath(parsed, 'data')).toBe('data.calls[0].__proto__');
    expect(illFormedPath(JSON.parse('{"__proto__":5}'), 'metadata')).toBe('metadata.__proto__');
    expect(illFormedPath({ proto: { __proto_: 1 } }, 'data')).toBeNull();
    const refused = () => validateEvents([{ id: ID, type: 't', data: JSON.parse('{"__proto__":{"x":1},"keep":2}') as never }]);
    expect(refused).toThrow('Refused: the data.__proto__ of a "t" event (00000000-0000-4000-8000-000000000001) holds a key named "__proto__", which JavaScript readers drop; nothing was stored');
  });

  // Outside test, session 23: "Not a JSON number: Infinity" on every surface, saying neither where nor why.
  it('a number that is not finite (1e400 as JSON reads it, NaN from a library caller) is refused naming where', () => {
    expect(illFormedPath(JSON.parse('{"a":[1,-1e400]}'), 'data')).toBe('data.a[1] (a number)');
    expect(illFormedPath({ n: Number.NaN }, 'metadata')).toBe('metadata.n (a number)');
    expect(illFormedPath({ n: 1e308, m: -0 }, 'data')).toBeNull();
    expect(() => validateEvents([{ id: ID, type: 't', data: JSON.parse('{"big":1e400}') as never }])).toThrow(
      'Refused: the data.big (a number) of a "t" event (00000000-0000-4000-8000-000000000001) holds a number too large for JSON to read as one (it reads as Infinity); nothing was stored',
    );
  });
});
