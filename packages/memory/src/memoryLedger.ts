import { createLedger, defaultConflictRetry, digestOf, invalidInput, newId, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { checkName, memoryStream } from '@session-ledger/events';
import { deliveryOf } from './providers/mutation.js';
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
  /**
   * The caller's id for the batch, an idempotency key (at most BATCH_ID_MAX characters, no control
   * character): a batch already committed under it in the profile, with the same operations, is
   * answered with its receipts (`written: false`) and not applied again; other operations under it
   * are refused (`duplicate`). Without one, a retry after a lost answer is a new batch: a remove by
   * selector could take a second entry (outside test, session 34, helper-94 F4).
   */
  batchId?: string;
}

export interface BatchResult {
  profile: string;
  stream: string;
  /** The stream revision of the batch's last event. */
  revision: bigint;
  position: bigint;
  receipts: Receipt[];
  /** false: the batch was committed before under its batchId, and these are its receipts. */
  written: boolean;
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
/** The longest batch id a caller may give (an id, like a session's or a turn's). */
export const BATCH_ID_MAX = 200;

const checkCausation = (key: string, value: string): void => {
  checkName(`causation.${key}`, value);
  if (value.length > CAUSATION_MAX) throw invalidInput(`Refused: causation.${key} is ${value.length} characters long, at most ${CAUSATION_MAX} (a session or turn id)`, `causation.${key}`);
};

const checkBatchId = (value: string): string => {
  checkName('batchId', value);
  if (value.length > BATCH_ID_MAX) throw invalidInput(`Refused: batchId is ${value.length} characters long, at most ${BATCH_ID_MAX}`, 'batchId');
  return value;
};

/** What an operation asked for, as its digest sees it: the keys of its kind only, in one order. */
const askedOf = (op: MemoryOperation) => ({
  op: op.op,
  target: op.target,
  ...(op.op === 'add' ? {} : op.entryId !== undefined ? { entryId: op.entryId } : { old: op.old }),
  ...(op.op === 'remove' ? {} : { content: op.content }),
});

/** A receipt again, from an event a keyed batch stored: the fields of the mutation the fan-out reads from it. */
const receiptOf = (event: RecordedEvent): Receipt => {
  const { op, entryId, target, previousContent, content, selector } = deliveryOf(event)!.mutation;
  return { op, entryId, target, previousContent, content, selector };
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
    const key = write.batchId === undefined ? {} : { key: { digest: digestOf(operations.map(askedOf)) } };
    const batchId = write.batchId === undefined ? newId() : checkBatchId(write.batchId);
    const command: ApplyBatch = { stream, batchId, operations, budgets, ...(write.causation ? { causation: write.causation } : {}), ...key };
    const handled = await ledger.handle(memoryDecider, stream, command, write.expectedRevision === undefined ? undefined : { expectedRevision: write.expectedRevision });
    const reply = handled.reply;
    if ('receipts' in reply) return { profile, stream, revision: handled.revision, position: handled.position ?? -1n, receipts: reply.receipts, written: true };
    // Committed before under this key: its own events say what it did, and where.
    const { first, size } = reply.replayed;
    const events = await store.readStream(stream, { fromRevision: first, maxCount: size });
    const last = events[events.length - 1]!;
    return { profile, stream, revision: last.revision, position: last.position, receipts: events.map(receiptOf), written: false };
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
