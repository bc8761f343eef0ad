import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerError } from '@session-ledger/core';
import { z } from 'zod';
import { ENTRY_DELIMITER } from '../budgets.js';
import { memoryTarget, type MemoryTarget } from '@session-ledger/events';
import type { MemoryEntry } from '@session-ledger/projections';
import { writeFileAtomic } from './atomicWrite.js';

/** The mirror's own record: which entry id holds which content, and the last position applied. */
export const MAPPING_FILE = '.session-ledger-mirror.json';
export const TARGET_FILES: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md' };

const mappingSchema = z.object({
  format: z.literal('session-ledger-markdown-mirror'),
  version: z.literal(1),
  profile: z.string(),
  /** Commit position of the last mutation applied, as a decimal string; "-1" before any. */
  position: z.string().regex(/^-?\d+$/),
  /** The id of the event at `position` (since session 34): a mapping of another store's history is told by it. */
  eventId: z.string().optional(),
  entries: z.array(z.object({ id: z.string(), target: memoryTarget, content: z.string() })),
});

export interface MirrorState {
  profile: string;
  position: bigint;
  /** The id of the event at `position`, when known. */
  eventId?: string;
  entries: MemoryEntry[];
}

export const readMirrorState = (dir: string, profile: string): MirrorState => {
  const path = join(dir, MAPPING_FILE);
  if (!existsSync(path)) return { profile, position: -1n, entries: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = mappingSchema.safeParse(raw);
  if (!parsed.success) throw ledgerError('invalid_input', `Unreadable mirror mapping ${path}; rebuild the mirror`, { field: 'mirror' });
  if (parsed.data.profile !== profile) {
    throw ledgerError('invalid_input', `${dir} mirrors profile ${parsed.data.profile}, not ${profile}`, { field: 'profile' });
  }
  return { profile, position: BigInt(parsed.data.position), ...(parsed.data.eventId === undefined ? {} : { eventId: parsed.data.eventId }), entries: parsed.data.entries };
};

/** The file body Hermes reads: the target's entries joined by a line holding only §. */
export const renderTarget = (entries: readonly MemoryEntry[], target: MemoryTarget): string =>
  entries
    .filter((entry) => entry.target === target)
    .map((entry) => entry.content)
    .join(ENTRY_DELIMITER);

/**
 * Writes the Markdown files first, the mapping last: a crash in between leaves the old
 * position, so the mutation is applied again (idempotently) after the restart. `guard` checks
 * each target's file just before it is replaced (see markdownMirror's `unchangedSince`).
 */
export const writeMirrorState = (
  dir: string,
  state: MirrorState,
  targets: readonly MemoryTarget[],
  guard?: (target: MemoryTarget) => void,
): void => {
  for (const target of targets) {
    writeFileAtomic(join(dir, TARGET_FILES[target]), renderTarget(state.entries, target), guard && (() => guard(target)));
  }
  const mapping = {
    format: 'session-ledger-markdown-mirror',
    version: 1,
    profile: state.profile,
    position: state.position.toString(),
    ...(state.eventId === undefined ? {} : { eventId: state.eventId }),
    entries: state.entries,
  };
  writeFileAtomic(join(dir, MAPPING_FILE), `${JSON.stringify(mapping, null, 2)}\n`);
};

/**
 * What the target's file holds now, as Hermes reads it (null: absent): a leading byte order mark
 * dropped (`utf-8-sig`) and newlines made `\n` (Python's universal newlines). Every check of what a
 * file says (adopted, changed since, filled) compares this: a Hermes file saved by Notepad with a BOM
 * holds the same entries, and was taken for another text, so the mirror parked over it (session 27).
 */
export const fileText = (dir: string, target: MemoryTarget): string | null => {
  const path = join(dir, TARGET_FILES[target]);
  return existsSync(path) ? readFileSync(path, 'utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n') : null;
};
