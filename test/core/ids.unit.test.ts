import { describe, expect, it } from 'vitest';
import { deterministicId, isUuid, newId } from '@session-ledger/core';

describe('event ids', () => {
  it('newId gives distinct UUIDs', () => {
    const ids = new Set(Array.from({ length: 100 }, newId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(isUuid(id)).toBe(true);
  });

  it('deterministicId gives the same UUID for the same parts, so a retried append carries the same ids', () => {
    expect(deterministicId('session', 's-1', 3)).toBe(deterministicId('session', 's-1', 3));
    expect(deterministicId('session', 's-1', 3n)).toBe(deterministicId('session', 's-1', '3'));
    expect(isUuid(deterministicId('x'))).toBe(true);
  });

  it('deterministicId has the version 5 and RFC 4122 variant bits', () => {
    const id = deterministicId('turn', 'abc');
    expect(id[14]).toBe('5');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
  });

  it('deterministicId separates its parts: (ab, c) and (a, bc) differ', () => {
    expect(deterministicId('ab', 'c')).not.toBe(deterministicId('a', 'bc'));
    expect(deterministicId('s', 1)).not.toBe(deterministicId('s', 2));
  });

  it('isUuid refuses what is not a UUID', () => {
    for (const text of ['', 'not-a-uuid', '123e4567-e89b-12d3-a456-42661417400', `${newId()}x`]) expect(isUuid(text)).toBe(false);
  });
});
