import { join } from 'node:path';
import { ledgerError } from '@session-ledger/core';
import type { MemoryTarget } from '@session-ledger/events';
import { filledBy } from './fillMarker.js';
import { sameEntries } from './hermesEntries.js';
import { fileText, renderTarget, TARGET_FILES, type MirrorState } from './mirrorState.js';

/**
 * A mapped directory's Markdown file that says neither what the mirror last wrote nor what the
 * mutation being applied leaves (a crash before the mapping): Hermes' memory tool, or a hand edit,
 * changed it. Replacing it would lose those entries (outside test, session 26: an entry Hermes
 * added and confirmed was gone at the mirror's next write, in no event), so the mirror refuses and
 * names the way on. An absent file loses nothing the stream does not hold: it is written again.
 */
export const unchangedSince =
  (dir: string, before: MirrorState, after: MirrorState) =>
  (target: MemoryTarget): void => {
    const text = fileText(dir, target);
    if (text === null) return;
    // Compared as Hermes reads it: an editor's final newline, or an entry of the mirror's own led by
    // U+FEFF (which the reading drops), is no change; both parked the mirror (outside test, helper-94 F6, F7).
    if (sameEntries(text, renderTarget(before.entries, target)) || sameEntries(text, renderTarget(after.entries, target))) return;
    // A rebuild killed before its mapping wrote it (the marker names it): the mirror's own.
    if (filledBy(dir, target, text)) return;
    throw ledgerError(
      'invalid_input',
      `${join(dir, TARGET_FILES[target])} changed since the mirror wrote it (Hermes' memory tool or a hand edit) and is left as it is: keep the edits (session-ledger memory mirror adopt --dir ${dir}) or drop them (session-ledger memory mirror rebuild --dir ${dir}), then session-ledger memory providers resume`,
      { field: 'mirror' },
    );
  };
