import { isLedgerError, type EventStore } from '@session-ledger/core';
import { MEMORY_TARGETS } from '@session-ledger/events';
import type { BatchResult, MemoryLedger } from '../memoryLedger.js';
import type { MemoryOperation } from '../operations.js';
import { handEditsOf } from './handEdits.js';
import type { MarkdownMirror } from './markdownMirror.js';
import { fileText, readMirrorState } from './mirrorState.js';

export interface Adopted {
  dir: string;
  profile: string;
  /** The hand edits, as operations on the profile (handEdits.ts). */
  operations: MemoryOperation[];
  /** The batch that committed them (null: none to commit, or a dry run). */
  batch: BatchResult | null;
  /** The directory rewritten from the profile afterwards (null: a dry run). */
  rebuilt: { entries: number; position: bigint | null } | null;
}

/** How many times the edits are read and committed again when another writer gets in between. */
const ATTEMPTS = 3;

/**
 * Keeps the edits made in a mirrored directory since the mirror wrote it (the way out of a mirror
 * parked on a hand edit, that keeps them): commits them to the profile as one batch through the
 * memory ledger, conditional on the revision they were planned against (budgets and duplicates
 * checked as for any write; refused, nothing is written and the files stay as they are), then
 * rewrites the directory from the profile. Resume the provider afterwards.
 */
export const adoptHandEdits = async (store: EventStore, mirror: MarkdownMirror, memory: MemoryLedger, options: { dryRun?: boolean } = {}): Promise<Adopted> => {
  const { dir, profile } = mirror;
  for (let attempt = 1; ; attempt += 1) {
    const state = await memory.state(profile);
    const written = readMirrorState(dir, profile).entries;
    const operations = MEMORY_TARGETS.flatMap((target) => handEditsOf(target, written, fileText(dir, target), state.entries));
    if (options.dryRun) return { dir, profile, operations, batch: null, rebuilt: null };
    let batch: BatchResult | null = null;
    try {
      if (operations.length > 0) batch = await memory.apply(operations, { profile, ...(state.revision === null ? {} : { expectedRevision: state.revision }) });
    } catch (error) {
      if (isLedgerError(error, 'wrong_expected_version') && attempt < ATTEMPTS) continue;
      throw error;
    }
    return { dir, profile, operations, batch, rebuilt: await mirror.rebuild(store) };
  }
};
