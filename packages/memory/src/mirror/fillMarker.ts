import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryTarget } from '@session-ledger/events';
import { writeFileAtomic } from './atomicWrite.js';

/**
 * A fill (prepare: the whole profile into a directory without a mapping) writes MEMORY.md, USER.md,
 * then the mapping. Killed in between, the directory held the mirror's own partial fill, which the
 * next start took for Hermes' foreign files and parked on for good (outside test, session 26). The
 * marker, written before the first file and removed after the mapping, names what each file held
 * before the fill and what the fill writes: files that say one or the other are the mirror's own.
 */
export const MARKER_FILE = '.session-ledger-mirror.filling';

type Texts = Record<MemoryTarget, [before: string | null, after: string]>;

export const startFill = (dir: string, texts: Texts): void => writeFileAtomic(join(dir, MARKER_FILE), `${JSON.stringify(texts)}\n`);

export const endFill = (dir: string): void => rmSync(join(dir, MARKER_FILE), { force: true });

/** Whether a fill that was interrupted wrote `text` into the target's file, or found it there (an absent file loses nothing). */
export const filledBy = (dir: string, target: MemoryTarget, text: string | null): boolean => {
  if (text === null) return true;
  const path = join(dir, MARKER_FILE);
  if (!existsSync(path)) return false;
  try {
    const known = (JSON.parse(readFileSync(path, 'utf8')) as Partial<Texts>)[target];
    return Array.isArray(known) && (known[0] === text || known[1] === text);
  } catch {
    return false;
  }
};

/** Whether the directory's files are all those of a fill that was interrupted. */
export const interruptedFill = (dir: string, files: ReadonlyArray<{ target: MemoryTarget; text: string | null }>): boolean =>
  existsSync(join(dir, MARKER_FILE)) && files.every(({ target, text }) => filledBy(dir, target, text));
