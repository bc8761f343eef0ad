import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './types.js';

const RUNS = 3;

/**
 * Runs `work` (which does `count` operations) RUNS times, each on a fresh `prepare()`, and
 * returns the median rate in operations per second. Preparation is not timed.
 */
export const medianRate = async <T>(
  count: number,
  prepare: () => T | Promise<T>,
  work: (prepared: T) => void | Promise<void>,
  cleanup: (prepared: T) => void | Promise<void> = () => undefined,
): Promise<number> => {
  const rates: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const prepared = await prepare();
    const start = process.hrtime.bigint();
    await work(prepared);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    await cleanup(prepared);
    rates.push(count / seconds);
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(RUNS / 2)]!;
};

export const compared = (name: string, unit: string, value: number, baselineName: string, baseline: number): BenchRow => ({
  name,
  unit,
  value: Math.round(value),
  baseline: { name: baselineName, value: Math.round(baseline) },
  ratio: Math.round((value / baseline) * 100) / 100,
});

/** A scratch directory for one benchmark's files, removed by `remove`. */
export const scratch = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `session-ledger-bench-${label}-`));
  return { file: (name: string) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
};
