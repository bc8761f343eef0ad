import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './types.js';

/** One side of a comparison: prepare (not timed), work doing `count` operations (timed), cleanup. */
export interface Trial<T> {
  prepare: () => T | Promise<T>;
  work: (prepared: T) => void | Promise<void>;
  cleanup?: (prepared: T) => void | Promise<void>;
}

const timed = async <T>(count: number, trial: Trial<T>): Promise<number> => {
  const prepared = await trial.prepare();
  const start = process.hrtime.bigint();
  await trial.work(prepared);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await trial.cleanup?.(prepared);
  return count / seconds;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Runs the subject and its baseline alternately, `runs` short trials each, so both see the same
 * machine load (other processes, disk write-back), and returns the median rate (operations per
 * second) of each.
 */
export const compareRates = async <S, B>(
  count: number,
  subject: Trial<S>,
  baseline: Trial<B>,
  runs = 9,
): Promise<{ subject: number; baseline: number }> => {
  const subjectRates: number[] = [];
  const baselineRates: number[] = [];
  // One untimed trial of each side first, so neither is measured while V8 is still compiling it.
  await timed(count, baseline);
  await timed(count, subject);
  for (let run = 0; run < runs; run += 1) {
    baselineRates.push(await timed(count, baseline));
    subjectRates.push(await timed(count, subject));
  }
  return { subject: median(subjectRates), baseline: median(baselineRates) };
};

/**
 * Runs `work` (which does `count` operations) `runs` times, each on a fresh `prepare()`, and
 * returns the median rate in operations per second. Preparation is not timed.
 */
export const medianRate = async <T>(
  count: number,
  prepare: () => T | Promise<T>,
  work: (prepared: T) => void | Promise<void>,
  cleanup: (prepared: T) => void | Promise<void> = () => undefined,
  runs = 3,
): Promise<number> => {
  const rates: number[] = [];
  for (let run = 0; run < runs; run += 1) rates.push(await timed(count, { prepare, work, cleanup }));
  return median(rates);
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
