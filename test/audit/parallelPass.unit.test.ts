import { describe, expect, it } from 'vitest';
import { parallelPass, type LeafRange, type ParallelScanner } from '@session-ledger/core';

/** A scanner that records the ranges it is asked for and scans none (parallelPass then gives null: the sweep). */
const recording = (workers: number) => {
  const asked: LeafRange[] = [];
  const scanner: ParallelScanner = {
    workers,
    async scan(ranges) {
      asked.push(...ranges);
      return [];
    },
  };
  return { scanner, asked };
};

describe('parallelPass: the ranges it splits a log into by default', () => {
  it('gives each worker about sixteen ranges, so workers end at most a small range apart', async () => {
    for (const [size, workers] of [
      [1_000_000, 2],
      [1_000_000, 4],
      [300_000, 2],
    ] as const) {
      const { scanner, asked } = recording(workers);
      expect(await parallelPass(scanner, size, null, {})).toBeNull();
      const span = asked[0]!.to - asked[0]!.from;
      expect(asked.length, `${size} leaves, ${workers} workers`).toBeGreaterThanOrEqual(workers * 8);
      expect(span * workers * 16, `${size} leaves, ${workers} workers`).toBeLessThanOrEqual(size);
      expect(asked.every((range) => range.from % span === 0 && range.to - range.from <= span)).toBe(true);
      expect(asked[asked.length - 1]!.to).toBe(size);
    }
  });

  it('keeps ranges of at least 4,096 leaves, and takes a span it is given', async () => {
    const small = recording(2);
    await parallelPass(small.scanner, 100_000, null, {});
    expect(small.asked[0]).toEqual({ from: 0, to: 4096 });
    const given = recording(2);
    await parallelPass(given.scanner, 1_000_000, null, { span: 65_536 });
    expect(given.asked).toHaveLength(16);
  });
});
