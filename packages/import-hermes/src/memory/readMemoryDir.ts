import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { invalidInput } from '@session-ledger/core';
import { parseEntries } from './parseEntries.js';

/** Which Hermes store an entry came from: MEMORY.md (the agent's notes) or USER.md (about the user). */
export type MemoryTarget = 'memory' | 'user';

export interface MemoryFileEntries {
  target: MemoryTarget;
  file: string;
  entries: string[];
  /** The file's modification time (ISO), the best available time for legacy entries. */
  modified: string;
}

const FILES: Array<[MemoryTarget, string]> = [
  ['memory', 'MEMORY.md'],
  ['user', 'USER.md'],
];

/** Reads MEMORY.md and USER.md from a Hermes `memories` directory (either may be absent). */
export const readMemoryDir = (dir: string): MemoryFileEntries[] => {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw invalidInput(`Not a memories directory: ${dir}`, 'memories');
  const out: MemoryFileEntries[] = [];
  for (const [target, name] of FILES) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    out.push({ target, file, entries: parseEntries(readFileSync(file, 'utf8')), modified: statSync(file).mtime.toISOString() });
  }
  return out;
};
