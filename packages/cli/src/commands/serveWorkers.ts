import { availableParallelism } from 'node:os';
import { invalidInput } from '@session-ledger/core';

/**
 * How many processes `serve` runs. Several workers share one SQLite file (WAL; the store's appends
 * are conditional and its caches follow other connections' commits), so `auto` is 2 on sqlite when
 * the machine has 2 or more cores (docs/benchmarks.md, "Session 8"). A `memory:` store lives in
 * one process and cannot be shared; an EventStoreDB server is the writer itself and its local read
 * models are kept by one subscriber per process: both run in one process.
 */
export const workerCount = (text: string, storeUrl: string): number => {
  const sqlite = storeUrl.startsWith('sqlite:');
  if (text === 'auto') return sqlite && availableParallelism() >= 2 ? 2 : 1;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw invalidInput(`--workers must be auto or a whole number >= 1: ${text}`, 'workers');
  const count = Number(text);
  if (count > 1 && !sqlite) {
    throw invalidInput(`--workers ${count} needs a sqlite: store; ${storeUrl.split(':')[0]}: is served by one process`, 'workers');
  }
  return count;
};
