import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { storeUnavailable } from './errors.js';

const codeOf = (error: unknown): string => String((error as NodeJS.ErrnoException).code ?? (error as Error).message);

/** The folder is a directory; false when nothing is there; store_unavailable when a file is. */
const isFolder = (path: string): boolean => {
  try {
    if (statSync(path).isDirectory()) return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    throw storeUnavailable(`Cannot create the folder ${path}: ${codeOf(error)}`, codeOf(error));
  }
  throw storeUnavailable(`Cannot create the folder ${path}: a file is there`, 'ENOTDIR');
};

/**
 * `mkdir -p` that ends. Node 20's `mkdirSync(path, { recursive: true })` loops at full CPU for ever
 * where the kernel answers ENOENT for a child of a folder that exists (`/proc/nope`), and a file on the
 * way was an internal error (EEXIST): `SESSION_LEDGER_HOME=/proc/nope session-ledger sessions start`
 * never returned (outside test, session 23). Each missing folder is made on its own, from the
 * highest; any failure is store_unavailable in one line, naming the folder and the code.
 */
export const makeFolder = (path: string): void => {
  const missing: string[] = [];
  for (let at = resolve(path); !isFolder(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Made meanwhile by another process: as good.
      if (codeOf(error) !== 'EEXIST' || !isFolder(folder)) throw storeUnavailable(`Cannot create the folder ${folder}: ${codeOf(error)}`, codeOf(error));
    }
  }
};
