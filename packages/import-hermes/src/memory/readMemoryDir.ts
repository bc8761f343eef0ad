import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { invalidInput } from '@session-ledger/core';
import { parseEntries } from '@session-ledger/memory';

/** Which Hermes store an entry came from: MEMORY.md (the agent's notes) or USER.md (about the user). */
export type MemoryTarget = 'memory' | 'user';

export interface MemoryFileEntries {
  target: MemoryTarget;
  file: string;
  entries: string[];
  /** The file's modification time (ISO), the best available time for legacy entries. */
  modified: string;
  /** Why Hermes cannot read the file (not valid UTF-8): it then holds no entry, as Hermes reads it. */
  unreadable?: string;
}

/** Strict UTF-8, as Hermes decodes a memory file (`errors` strict): a BOM is consumed, invalid bytes throw. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

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
    const modified = statSync(file).mtime.toISOString();
    let text: string;
    try {
      text = UTF8.decode(readFileSync(file));
    } catch {
      // Hermes reads such a file as unreadable (no entries) and refuses to write it; read leniently, its
      // bad bytes became U+FFFD in entries Hermes never had (outside test, session 27).
      out.push({ target, file, entries: [], modified, unreadable: `${name} is not valid UTF-8: Hermes reads it as unreadable (no entries); none of it was imported` });
      continue;
    }
    out.push({ target, file, entries: parseEntries(text), modified });
  }
  return out;
};
