import { describe, expect, it } from 'vitest';
import { appendChunks, eventBytes } from '@session-ledger/core';

describe('appendChunks: appends bounded in events and bytes', () => {
  const sizes = (chunks: number[][]) => chunks.map((chunk) => chunk.length);

  it('keeps the order, closes a chunk at maxCount or before it would pass maxBytes, and sends an item larger than maxBytes alone', () => {
    const items = [3, 3, 3, 9, 12, 1, 1, 1, 1];
    const chunks = appendChunks(items, (n) => n, 3, 10);
    expect(chunks).toEqual([[3, 3, 3], [9], [12], [1, 1, 1], [1]]);
    expect(chunks.flat()).toEqual(items);
    expect(sizes(appendChunks([], (n: number) => n, 3, 10))).toEqual([]);
  });

  it('counts an event by the UTF-8 bytes of its type, data and metadata', () => {
    expect(eventBytes({ type: 'é', data: { t: '世' }, metadata: {} })).toBe(2 + Buffer.byteLength('{"t":"世"}') + 2);
  });
});
