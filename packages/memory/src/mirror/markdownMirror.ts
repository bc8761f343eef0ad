import { notFound, type EventStore } from '@session-ledger/core';
import { DEFAULT_PROFILE } from '../profile.js';
import type { MemoryEntry } from '@session-ledger/projections';
import type { MemoryMutation, MemoryProvider } from '../providers/index.js';
import { readMemoryState } from '../readState.js';
import { unchangedSince } from './changedFiles.js';
import { foreignFiles, holdEntries, sameAsEntries, unmappedFiles } from './foreignFiles.js';
import { withMirrorLock } from './mirrorLock.js';
import { readMirrorState, writeMirrorState, type MirrorState } from './mirrorState.js';

export interface MarkdownMirrorOptions {
  dir: string;
  profile?: string;
  /** Provider name (checkpoint and status key). Default `markdown-mirror`. */
  name?: string;
}

export interface MarkdownMirror extends MemoryProvider {
  readonly dir: string;
  readonly profile: string;
  /** Applies one mutation under the directory's lock (resolves once the files and the mapping are written). */
  apply(mutation: MemoryMutation): Promise<void>;
  /** Rewrites the directory from the stream's current state (repair after drift or a lost directory). */
  rebuild(store: EventStore): Promise<{ entries: number; position: bigint | null }>;
}

/** Applies one mutation by entry id; never searches by selector. */
const applyById = (entries: readonly MemoryEntry[], mutation: MemoryMutation): MemoryEntry[] => {
  const index = entries.findIndex((entry) => entry.id === mutation.entryId);
  if (mutation.op === 'remove') return index < 0 ? [...entries] : entries.filter((_, at) => at !== index);
  const content = mutation.content!;
  if (index >= 0) return entries.map((entry, at) => (at === index ? { ...entry, content } : entry));
  if (mutation.op === 'add') return [...entries, { id: mutation.entryId, target: mutation.target, content }];
  // A replace of an entry the mirror never saw: refuse rather than guess a target.
  throw notFound(`mirrored ${mutation.target} entry (rebuild the mirror)`, mutation.entryId);
};

/**
 * The Markdown mirror: MEMORY.md and USER.md in a directory, in Hermes' format (entries joined by
 * a line holding only §), written atomically. It keeps an entry id → content mapping and the last
 * commit position it applied, so a redelivered mutation changes nothing. Every write holds the
 * directory's lock (mirrorLock.ts), so several processes may mirror into one directory; a file changed
 * since the mirror wrote it is never replaced (changedFiles.ts).
 */
export const createMarkdownMirror = (options: MarkdownMirrorOptions): MarkdownMirror => {
  const { dir } = options;
  const profile = options.profile ?? DEFAULT_PROFILE;
  /** Both files and the mapping from the profile's state as read (rebuild, and prepare's fill). */
  const writeWhole = (current: Awaited<ReturnType<typeof readMemoryState>>) => {
    writeMirrorState(dir, { profile, position: current.position ?? -1n, entries: current.entries }, ['memory', 'user']);
    return { entries: current.entries.length, position: current.position };
  };
  return {
    name: options.name ?? 'markdown-mirror',
    dir,
    profile,
    async apply(mutation) {
      if (mutation.profile !== profile) return;
      await withMirrorLock(dir, () => {
        // Files this mirror never wrote that hold entries are not overwritten: the provider parks, naming import and rebuild.
        const unmapped = unmappedFiles(dir);
        if (unmapped && holdEntries(unmapped)) throw foreignFiles(dir, profile);
        const state = readMirrorState(dir, profile);
        if (mutation.position <= state.position) return;
        const next: MirrorState = { profile, position: mutation.position, entries: applyById(state.entries, mutation) };
        // A file changed since this mirror wrote it (Hermes' memory tool) is not replaced: checked just before the rename.
        writeMirrorState(dir, next, [mutation.target], unchangedSince(dir, state, next));
      });
    },
    rebuild(store) {
      return withMirrorLock(dir, async () => writeWhole(await readMemoryState(store, profile)));
    },
    // A directory without the mapping is filled before following, because the checkpoint, shared by
    // every mirror of this name, may be past every mutation it needs (outside test, session 17): a new
    // or emptied one, or one whose files already say what the profile holds (Hermes' own files,
    // imported), which is adopted. Files that say anything else are Hermes' own entries, never
    // imported: left as they are, and the fan-out is told why (as apply refuses them).
    async prepare(store) {
      if (unmappedFiles(dir) === null) return;
      await withMirrorLock(dir, async () => {
        // Read again under the lock: another process may have filled it meanwhile.
        const files = unmappedFiles(dir);
        if (files === null) return;
        const current = await readMemoryState(store, profile);
        if (holdEntries(files) && !sameAsEntries(files, current.entries)) throw foreignFiles(dir, profile);
        writeWhole(current);
      });
    },
  };
};
