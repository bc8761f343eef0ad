import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerError } from '@session-ledger/core';
import type { MemoryEntry } from '@session-ledger/projections';
import { parseEntries } from './hermesEntries.js';
import { fileText, MAPPING_FILE, TARGET_FILES } from './mirrorState.js';

/** The texts of the mirror's Markdown files (null: absent) when the directory has no mapping; null when it has one. */
export const unmappedFiles = (dir: string): Array<{ target: keyof typeof TARGET_FILES; text: string | null }> | null => {
  if (existsSync(join(dir, MAPPING_FILE))) return null;
  return (Object.keys(TARGET_FILES) as Array<keyof typeof TARGET_FILES>).map((target) => ({ target, text: fileText(dir, target) }));
};

type Unmapped = NonNullable<ReturnType<typeof unmappedFiles>>;

/** Whether unmapped files hold any entry (an absent or empty file holds none): the one rule of prepare and apply. */
export const holdEntries = (files: Unmapped): boolean => files.some(({ text }) => text !== null && parseEntries(text).length > 0);

/**
 * Whether every entry unmapped files hold, as Hermes reads them, is one the profile holds in that
 * target: writing the profile over them loses nothing (a directory written by Hermes, then imported;
 * a final newline aside). It asked for the same entries in the same order, so one ledger write
 * between the import and the mirror's first start (or a mapping deleted by hand) parked the mirror
 * for good, the advised import adding nothing (outside test, session 34, helper-94 F7, F3).
 */
export const heldByProfile = (files: Unmapped, entries: readonly MemoryEntry[]): boolean =>
  files.every(({ target, text }) => {
    const held = new Set(entries.filter((entry) => entry.target === target).map((entry) => entry.content));
    return parseEntries(text ?? '').every((entry) => held.has(entry));
  });

/**
 * A directory holding Markdown files this mirror never wrote (no mapping), which say something else
 * than the profile: Hermes' own memory, never imported. Overwriting it would lose those entries
 * (outside test, session 17: the first mutation replaced them), so the mirror refuses and names both ways on.
 */
export const foreignFiles = (dir: string, profile: string) =>
  ledgerError(
    'invalid_input',
    `${dir} holds MEMORY.md or USER.md that this mirror did not write and profile ${profile} does not hold: keep their entries (session-ledger memory mirror adopt --dir ${dir}) or replace them (session-ledger memory mirror rebuild --dir ${dir})`,
    { field: 'mirror' },
  );
