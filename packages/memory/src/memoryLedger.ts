import { createLedger, defaultConflictRetry, invalidInput, newId, type EventStore } from '@session-ledger/core';
import { checkName, memoryStream } from '@session-ledger/events';
import { DEFAULT_BUDGETS, type Budgets } from './budgets.js';
import { memoryDecider, type ApplyBatch } from './decide/memoryDecider.js';
import type { Causation, MemoryTarget } from '@session-ledger/events';
import type { MemoryOperation, Receipt } from './operations.js';
import { checkProfile, DEFAULT_PROFILE } from './profile.js';
import { entriesOf, type MemoryEntry } from '@session-ledger/projections';
import type { MemoryState } from './readState.js';

export interface MemoryLedgerOptions {
  budgets?: Partial<Budgets>;
  /** How many times in all a batch is resolved and appended when other writers keep committing first (the ledger's one retry policy otherwise). */
  maxAttempts?: number;
}

export interface WriteOptions {
  profile?: string;
  causation?: Causation;
  /**
   * The profile's revision the caller chose its selectors at (`state().revision`, or a batch result's
   * `revision`): the batch is refused (`wrong_expected_version`) if another writer changed the profile
   * since, rather than resolved against entries the caller never saw (outside test, session 34,
   * helper-94 F4: a remove of "notebook" took another writer's new entry). Omitted: resolved against
   * the profile as it is when the batch commits.
   */
  expectedRevision?: bigint;
}

export interface BatchResult {
  profile: string;
  stream: string;
  /** The stream revision of the batch's last event. */
  revision: bigint;
  position: bigint;
  receipts: Receipt[];
}

export interface MemoryLedger {
  readonly budgets: Budgets;
  list(options?: { profile?: string; target?: MemoryTarget }): Promise<MemoryEntry[]>;
  state(profile?: string): Promise<MemoryState>;
  /** Resolves and commits an ordered batch as one conditional append; receipts only after commit. */
  apply(operations: readonly MemoryOperation[], options?: WriteOptions): Promise<BatchResult>;
  add(target: MemoryTarget, content: string, options?: WriteOptions): Promise<BatchResult>;
  replace(target: MemoryTarget, old: string, content: string, options?: WriteOptions): Promise<BatchResult>;
  remove(target: MemoryTarget, old: string, options?: WriteOptions): Promise<BatchResult>;
}

/**
 * The longest causation id (a session or turn id: the ids' own limit). It is stored in every event of
 * the batch: a 1 MB one in a batch of 100 stored 100 MB (outside test, session 34, helper-94 F14).
 */
export const CAUSATION_MAX = 200;

const checkCausation = (key: string, value: string): void => {
  checkName(`causation.${key}`, value);
  if (value.length > CAUSATION_MAX) throw invalidInput(`Refused: causation.${key} is ${value.length} characters long, at most ${CAUSATION_MAX} (a session or turn id)`, `causation.${key}`);
};

export const createMemoryLedger = (store: EventStore, options: MemoryLedgerOptions = {}): MemoryLedger => {
  const ledger = createLedger(store, options.maxAttempts === undefined ? {} : { retry: { ...defaultConflictRetry, attempts: options.maxAttempts } });
  const budgets: Budgets = { ...DEFAULT_BUDGETS, ...options.budgets };
  /** A profile's state through the ledger's one cache: each read continues from the last. */
  const read = async (profile: string): Promise<MemoryState> => {
    const view = await ledger.load(memoryDecider, memoryStream(profile));
    const exists = view.revision >= 0n;
    return {
      profile,
      entries: view.state.entries,
      revision: exists ? view.revision : null,
      position: view.position,
      lastEventId: view.state.lastEventId,
    };
  };

  const apply: MemoryLedger['apply'] = async (operations, write = {}) => {
    const profile = checkProfile(write.profile ?? DEFAULT_PROFILE);
    const stream = memoryStream(profile);
    // Stored in every event's metadata and shown by readers: no control character (outside test, session 21).
    for (const [key, value] of Object.entries(write.causation ?? {})) if (typeof value === 'string') checkCausation(key, value);
    const command: ApplyBatch = { stream, batchId: newId(), operations, budgets, ...(write.causation ? { causation: write.causation } : {}) };
    const handled = await ledger.handle(memoryDecider, stream, command, write.expectedRevision === undefined ? undefined : { expectedRevision: write.expectedRevision });
    return { profile, stream, revision: handled.revision, position: handled.position ?? -1n, receipts: handled.reply };
  };
  return {
    budgets,
    list: async ({ profile, target } = {}) => entriesOf(await read(checkProfile(profile ?? DEFAULT_PROFILE)), target),
    state: (profile) => read(checkProfile(profile ?? DEFAULT_PROFILE)),
    apply,
    add: (target, content, write) => apply([{ op: 'add', target, content }], write),
    replace: (target, old, content, write) => apply([{ op: 'replace', target, old, content }], write),
    remove: (target, old, write) => apply([{ op: 'remove', target, old }], write),
  };
};
