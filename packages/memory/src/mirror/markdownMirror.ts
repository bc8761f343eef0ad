import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isLedgerError, ledgerError, notFound, readStreamIfAny, readStreamState, type EventStore } from '@session-ledger/core';
import { checkProfile, DEFAULT_PROFILE } from '../profile.js';
import type { MemoryEntry } from '@session-ledger/projections';
import type { MemoryMutation, MemoryProvider } from '../providers/index.js';
import { providerCheckpoint } from '../providers/statusEvents.js';
import { checkProviderNames } from '../providers/names.js';
import { MEMORY_TARGETS, memoryStream, type MemoryTarget } from '@session-ledger/events';
import { readMemoryState } from '../readState.js';
import { unchangedSince } from './changedFiles.js';
import { removeLeftTemps } from './atomicWrite.js';
import { endFill, interruptedFill, MARKER_FILE, startFill } from './fillMarker.js';
import { foreignFiles, heldByProfile, holdEntries, unmappedFiles } from './foreignFiles.js';
import { withMirrorLock } from './mirrorLock.js';
import { fileText, MAPPING_FILE, readMirrorState, renderTarget, TARGET_FILES, writeMirrorState, type MirrorState } from './mirrorState.js';

/** Every file the mirror writes atomically (through a temporary file) in its directory. */
const MIRROR_FILES = [...Object.values(TARGET_FILES), MAPPING_FILE, MARKER_FILE];

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
  /**
   * Applies a batch's mutations under the lock, writing each file they touch once. A directory that
   * lost its mapping since (emptied or removed) is filled from `store` first; without a store, one
   * this mirror saw mapped is refused (a new directory takes the batch alone, as the first of all).
   */
  applyBatch(mutations: readonly MemoryMutation[], store?: EventStore): Promise<void>;
  /** Rewrites the directory from the stream's current state (repair after drift or a lost directory). */
  rebuild(store: EventStore): Promise<{ entries: number; position: bigint | null }>;
}

/** Whether the profile's stream holds an event after `from` and at or before `to` (delivered elsewhere under the name). */
const missedBetween = async (store: EventStore, profile: string, from: bigint, to: bigint): Promise<boolean> => {
  if (to <= from) return false;
  const events = (await readStreamIfAny(store, memoryStream(profile), { direction: 'backwards', maxCount: 1_000_000 })) ?? [];
  return events.some((event) => event.position > from && event.position <= to);
};

/** Refuses a directory whose readable mapping names another profile (an unreadable one is what a rebuild repairs). */
const mappedTo = (dir: string, profile: string): void => {
  try {
    readMirrorState(dir, profile);
  } catch (error) {
    if (isLedgerError(error, 'invalid_input') && error.details.field === 'profile') throw error;
  }
};

/** A directory that lost its mapping, given a mutation with no store to fill it from. */
const lostMapping = (dir: string) =>
  ledgerError('invalid_input', `${dir} lost the mirror's mapping (emptied or removed): rebuild it (session-ledger memory mirror rebuild --dir ${dir})`, { field: 'mirror' });

/**
 * Whether a mapping's position names no event of the profile's stream in this store (or another event
 * than the one it applied there): the mapping was written from another store's history.
 */
const ofAnotherHistory = async (store: EventStore, profile: string, state: MirrorState): Promise<boolean> => {
  if (state.position < 0n) return false;
  const events = (await readStreamIfAny(store, memoryStream(profile), { direction: 'backwards', maxCount: 1_000_000 })) ?? [];
  const there = events.find((event) => event.position === state.position);
  return there === undefined || (state.eventId !== undefined && there.id !== state.eventId);
};

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
  // Checked as every --profile is: a typo mirrored nothing and reported active (outside test, session 34, helper-94 F5).
  const profile = checkProfile(options.profile ?? DEFAULT_PROFILE);
  /** Work on the directory under its lock, after removing the temporary files of a writer killed with -9. */
  const locked = <T>(work: () => T | Promise<T>): Promise<T> =>
    withMirrorLock(dir, () => {
      removeLeftTemps(dir, MIRROR_FILES);
      return work();
    });
  /** Both files and the mapping from the profile's state as read (rebuild, and prepare's fill), inside a fill marker (fillMarker.ts). */
  const writeWhole = (current: Awaited<ReturnType<typeof readMemoryState>>) => {
    const texts = (target: MemoryTarget): [string | null, string] => [fileText(dir, target), renderTarget(current.entries, target)];
    startFill(dir, { memory: texts('memory'), user: texts('user') });
    writeMirrorState(dir, { profile, position: current.position ?? -1n, ...(current.lastEventId === null ? {} : { eventId: current.lastEventId }), entries: current.entries }, ['memory', 'user']);
    endFill(dir);
    return { entries: current.entries.length, position: current.position };
  };
  /** Whether this mirror has seen the directory's mapping (read or written it). */
  let seenMapped = false;
  const applyBatch = async (mutations: readonly MemoryMutation[], store?: EventStore): Promise<void> => {
    const mine = mutations.filter((mutation) => mutation.profile === profile);
    if (mine.length === 0) return;
    await locked(async () => {
      // Files this mirror never wrote that hold entries are not overwritten: the provider parks, naming import and rebuild.
      const unmapped = unmappedFiles(dir);
      // Emptied or removed since it was prepared (or its mapping deleted, its entries all the profile's):
      // filled whole, then the batch's later mutations. Applying the batch to nothing wrote a MEMORY.md of
      // the batch alone, and its mapping hid the loss from every restart (outside test, session 34,
      // helper-94 F2). Without a store (a mirror applied directly), only a directory this mirror saw
      // mapped is known lost.
      const current = unmapped && store !== undefined ? await readMemoryState(store, profile) : null;
      if (unmapped && holdEntries(unmapped) && !(current && heldByProfile(unmapped, current.entries))) throw foreignFiles(dir, profile);
      if (current) writeWhole(current);
      else if (unmapped && seenMapped) throw lostMapping(dir);
      const state = readMirrorState(dir, profile);
      seenMapped = true;
      const fresh = mine.filter((mutation) => mutation.position > state.position);
      if (fresh.length === 0) return;
      // The whole batch in one write of each file it touches: no reader sees a state between its operations.
      const next: MirrorState = { profile, position: fresh.at(-1)!.position, eventId: fresh.at(-1)!.eventId, entries: fresh.reduce(applyById, state.entries) };
      // A file deleted by hand is written again with the batch, whichever target the batch changes (helper-94 F3).
      const targets = MEMORY_TARGETS.filter((target) => fresh.some((mutation) => mutation.target === target) || !existsSync(join(dir, TARGET_FILES[target])));
      // A file changed since this mirror wrote it (Hermes' memory tool) is not replaced: checked just before the rename.
      writeMirrorState(dir, next, targets, unchangedSince(dir, state, next));
    });
  };
  const name = options.name ?? 'markdown-mirror';
  checkProviderNames([name]);
  return {
    name,
    dir,
    profile,
    apply: (mutation) => applyBatch([mutation]),
    applyBatch,
    rebuild(store) {
      return locked(async () => {
        // A rebuild replaces the files with a profile's entries: of a profile the store never held, or over
        // a directory mapped to another, it emptied or swapped what Hermes reads, exit 0 (helper-94 F5).
        if ((await readStreamState(store, memoryStream(profile))).state === 'absent') {
          throw ledgerError('not_found', `No memory was ever written to profile ${profile}: nothing to rebuild the mirror from (check the name)`, { what: 'memory profile', id: profile });
        }
        mappedTo(dir, profile);
        return writeWhole(await readMemoryState(store, profile));
      });
    },
    // A directory without the mapping is filled before following, because the checkpoint, shared by
    // every mirror of this name, may be past every mutation it needs (outside test, session 17): a new
    // or emptied one, or one whose files already say what the profile holds (Hermes' own files,
    // imported), which is adopted. Files that say anything else are Hermes' own entries, never
    // imported: left as they are, and the fan-out is told why (as apply refuses them).
    async prepare(store) {
      await locked(async () => {
        // Read under the lock: another process may have filled it meanwhile.
        const files = unmappedFiles(dir);
        const current = await readMemoryState(store, profile);
        if (files === null) {
          // Mapped, but the name's checkpoint is past the mapping while the profile holds more: another directory
          // or profile under that name took the mutations it lacks (outside test, session 26: a mirror
          // of the work profile took the default mirror's delivery, which then never came). Written whole,
          // unless Hermes changed a file since (that parks, as an apply does).
          const state = readMirrorState(dir, profile);
          const delivered = await store.readCheckpoint(providerCheckpoint(name));
          // A mapping of another store's history (a migrate, a restored backup, another store on the same
          // directory): its position is no place in this one, and every mutation at or below it was
          // dropped as applied, while the status read active (outside test, session 34, helper-94 F9).
          if ((await ofAnotherHistory(store, profile, state)) || (delivered !== null && (await missedBetween(store, profile, state.position, delivered)))) {
            const next: MirrorState = { profile, position: current.position ?? -1n, entries: current.entries };
            for (const target of MEMORY_TARGETS) unchangedSince(dir, state, next)(target);
            writeWhole(current);
          }
          // A file deleted by hand since is written again at start, from the mapping: the other stayed
          // absent until a mutation of its own target, while the status read active (helper-94 F3).
          const absent = MEMORY_TARGETS.filter((target) => !existsSync(join(dir, TARGET_FILES[target])));
          if (absent.length > 0) writeMirrorState(dir, readMirrorState(dir, profile), absent);
          endFill(dir); // left by a fill killed after its mapping
          return;
        }
        // The mirror's own fill, killed before its mapping, is filled again (outside test, session 26: it parked for good).
        if (holdEntries(files) && !heldByProfile(files, current.entries) && !interruptedFill(dir, files)) throw foreignFiles(dir, profile);
        writeWhole(current);
      });
    },
  };
};
