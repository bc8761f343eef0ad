import { invalidInput } from '@session-ledger/core';

/** `serve`'s default: one process (docs/benchmarks.md, "Session 8": 2 workers measured no faster on a busy 2-core machine). */
export const DEFAULT_WORKERS = '1';

/**
 * How many processes `serve` runs. Several workers share one SQLite file (WAL; the store's appends
 * are conditional and its caches follow other connections' commits). A `memory:` store lives in
 * one process and cannot be shared; an EventStoreDB server is the writer itself (more processes
 * would add no writer) and its local read models are kept by one subscriber per process: both are
 * served by one process.
 */
export const workerCount = (text: string, storeUrl: string): number => {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 64) throw invalidInput(`--workers must be a whole number from 1 to 64: ${text}`, 'workers');
  const count = Number(text);
  if (count > 1 && !storeUrl.startsWith('sqlite:')) {
    throw invalidInput(`--workers ${count} needs a sqlite: store; a ${storeUrl.split(':')[0]}: store is served by one process`, 'workers');
  }
  return count;
};
