import { type Ledger } from '@session-ledger/core';
import { decodeMemoryEvents, memoryStream } from '@session-ledger/events';
import { foldMemoryEntries } from '@session-ledger/projections';
import { checkProfile } from '@session-ledger/memory';
import { readIds } from '../ledger/readIds.js';
import { memoryEvents } from './memoryEvents.js';
import type { MemoryFileEntries } from './readMemoryDir.js';

/** A memory profile names a stream (the memory ledger's rule). */
export const checkMemoryProfile = checkProfile;

export interface MemoryImport {
  /** Entries in the files. */
  found: number;
  /** Entries this run wrote (or would write, in a dry run). */
  written: number;
  skipped: Array<{ reason: string }>;
}

/**
 * Adds the entries of Hermes' memory files that the profile's memory stream does not hold
 * yet, at the end, conditional on the revision read. Held means imported before (the event id)
 * or in the profile now with the same text in the same target: a second copy would be a
 * duplicate the memory ledger refuses and Hermes reads as drift (outside test, session 26: the
 * import after a parked mirror added every entry the ledger had mirrored again). Entries are
 * never removed here.
 */
export const importMemory = async (ledger: Ledger, files: MemoryFileEntries[], profile: string, dryRun: boolean): Promise<MemoryImport> => {
  const planned = memoryEvents(checkMemoryProfile(profile), files);
  const unreadable = files.flatMap((file) => (file.unreadable === undefined ? [] : [{ reason: file.unreadable }]));
  const stream = memoryStream(profile);
  const held = await readIds(ledger.store, stream);
  if (held.kind === 'deleted') return { found: planned.length, written: 0, skipped: [...unreadable, { reason: `${stream} was deleted in the ledger` }] };
  const have = new Set(held.kind === 'present' ? held.ids : []);
  const entries = held.kind === 'present' ? foldMemoryEntries(decodeMemoryEvents(held.events), { entries: [] }).entries : [];
  const texts = new Set(entries.map((entry) => `${entry.target}\u0000${entry.content}`));
  const fresh = planned.filter((event) => {
    const { target, content } = event.data as { target: string; content: string };
    return !have.has(event.id) && !texts.has(`${target}\u0000${content}`);
  });
  if (!dryRun && fresh.length > 0) {
    await ledger.append(stream, fresh, { expectedRevision: held.kind === 'present' ? held.lastRevision : 'no_stream' });
  }
  return { found: planned.length, written: fresh.length, skipped: unreadable };
};
