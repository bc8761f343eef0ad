import { describe, expect, it } from 'vitest';
import { repeatsKeys, scanJsonText } from '@session-ledger/core';

const repeats = (text: string) => repeatsKeys(scanJsonText(text), JSON.parse(text));

describe('JSON text that repeats a key (JSON.parse keeps the last, so the first would be dropped)', () => {
  it('finds a key repeated at any depth, in objects within arrays too', () => {
    expect(repeats('{"role":"system","role":"user"}')).toBe(true);
    expect(repeats('{"type":"t","data":{"k":1,"k":2}}')).toBe(true);
    expect(repeats('[{"a":1},{"b":[{"c":1,"c":1}]}]')).toBe(true);
    expect(repeats('{"__proto__":1,"__proto__":2}')).toBe(true);
  });

  it('passes every key once, colons and quotes inside strings, the same key in sibling objects, and empty objects', () => {
    expect(repeats('{"role":"user","content":"a: b, \\"c\\": d"}')).toBe(false);
    expect(repeats('{"a":{"k":1},"b":{"k":2},"c":[{"k":3},{}],"d":{}}')).toBe(false);
    expect(repeats('{"__proto__":{"x":1},"constructor":2}')).toBe(false);
    expect(repeats('"a:b"')).toBe(false);
    expect(repeats('[1,2,3]')).toBe(false);
  });
});
