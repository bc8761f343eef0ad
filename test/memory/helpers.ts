import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryMutation, MemoryProvider } from '@session-ledger/memory';

/** Waits for a condition that asynchronous delivery will make true (bounded by the test timeout). */
export const until = async (condition: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> => {
  for (let i = 0; i < 2000; i += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
};

export const recordingProvider = (name: string, apply?: (mutation: MemoryMutation) => Promise<void> | void) => {
  const seen: MemoryMutation[] = [];
  const provider: MemoryProvider = {
    name,
    async apply(mutation) {
      if (apply) await apply(mutation);
      seen.push(mutation);
    },
  };
  return { provider, seen };
};

export const tempDirs = () => {
  const dirs: string[] = [];
  return {
    make: (prefix = 'memory-') => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    cleanup: () => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
};
