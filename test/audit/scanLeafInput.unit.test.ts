import { describe, expect, it } from 'vitest';
import { leafInput, sha256Hex } from '@session-ledger/core';
import { scanLeafInput } from '../../packages/core/src/log/scanLeafInput.js';

describe('scanLeafInput: the leaf input a range scan writes', () => {
  it('is leafInput, byte for byte, for safe integer revisions and computed hashes', () => {
    const hashes = [sha256Hex('a'), sha256Hex('b'), '0'.repeat(64)];
    const streams = ['session-1', 'sé "quoted" \\ \n\u2028 😀', ''];
    const createdTimes = ['2026-12-01T12:00:00.000Z', 'not a "date"\t', ''];
    const revisions = [0, 1, 41, -0, -3, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    for (const hash of hashes) {
      for (const stream of streams) {
        for (const created of createdTimes) {
          for (const revision of revisions) {
            for (const index of [0, 7, 2 ** 40]) {
              for (const position of [null, 1, 2 ** 40 + 3]) {
                expect(scanLeafInput(index, position, stream, revision, hash, created)).toBe(
                  leafInput({ index, position: position === null ? null : BigInt(position), stream, revision: BigInt(revision), hash, created }),
                );
              }
            }
          }
        }
      }
    }
  });
});
