import { availableParallelism } from 'node:os';
import { invalidInput } from '@session-ledger/core';
import type { StoreOpener } from '@session-ledger/import-hermes';

/**
 * From this many source messages on, `import hermes` appends on a second thread by default: below it
 * the worker's start (its own copy of the store's modules and a second connection, see
 * packages/import-hermes/README.md, "Speed", Session 8) costs more than the split saves.
 */
export const SPLIT_MIN_MESSAGES = 20_000;

export type Threads = 1 | 2 | 'auto';

export const parseThreads = (value: string | undefined): Threads => {
  if (value === undefined) return 'auto';
  if (value === '1') return 1;
  if (value === '2') return 2;
  throw invalidInput(`--threads must be 1 or 2, not ${JSON.stringify(value)}`);
};

/**
 * How the import's append worker opens its own store on this ledger: the CLI's own opener and URL,
 * so its appends write the inline read models (session catalog, search) in their own transactions,
 * as this thread's would. Only an SQLite ledger can be opened twice like that; any other store,
 * `--threads 1`, and by default a small source or a machine with one core (the split costs more CPU
 * in all, and only a second core pays it back) keep the import on one thread.
 */
export const appendThreadFor = (storeUrl: string, threads: Threads, messages: number, cores = availableParallelism()): StoreOpener | undefined => {
  if (threads === 1 || !/^sqlite:/i.test(storeUrl)) return undefined;
  if (threads === 'auto' && (messages < SPLIT_MIN_MESSAGES || cores < 2)) return undefined;
  return { module: new URL('../openStore.js', import.meta.url).href, name: 'openStore', args: [storeUrl, { write: true }] };
};
