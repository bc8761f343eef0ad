import { createLedger, isLedgerError, memoryStream, newId, type EventStore } from '@session-ledger/core';
import { encodeMemoryEvent } from '@session-ledger/events';
import * as E from 'fp-ts/lib/Either.js';
import { DEFAULT_BUDGETS, type Budgets } from './budgets.js';
import type { Causation, MemoryTarget } from '@session-ledger/events';
import type { MemoryOperation, Receipt } from './operations.js';
import { checkProfile, DEFAULT_PROFILE } from './profile.js';
import { entriesOf, type MemoryEntry } from '@session-ledger/projections';
import { readMemoryState, type MemoryState } from './readState.js';
import { resolveBatch } from './resolve.js';

export interface MemoryLedgerOptions {
  budgets?: Partial<Budgets>;
  /** How many times a batch is resolved again after another writer committed first. Default 5. */
  maxAttempts?: number;
}

export interface WriteOptions {
  profile?: string;
  causation?: Causation;
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

export const createMemoryLedger = (store: EventStore, options: MemoryLedgerOptions = {}): MemoryLedger => {
  const ledger = createLedger(store);
  const budgets: Budgets = { ...DEFAULT_BUDGETS, ...options.budgets };
  const maxAttempts = options.maxAttempts ?? 5;
  /** The last state read per profile; every read continues from it (see readMemoryState). */
  const cache = new Map<string, MemoryState>();
  const read = async (profile: string) => {
    const state = await readMemoryState(store, profile, cache.get(profile));
    cache.set(profile, state);
    return state;
  };

  const apply: MemoryLedger['apply'] = async (operations, write = {}) => {
    const profile = checkProfile(write.profile ?? DEFAULT_PROFILE);
    const stream = memoryStream(profile);
    for (let attempt = 1; ; attempt += 1) {
      const state = await read(profile);
      const baseRevision = state.revision ?? -1n;
      const batchId = newId();
      const resolved = resolveBatch(state.entries, operations, { stream, baseRevision, batchId, budgets });
      if (E.isLeft(resolved)) throw resolved.left;
      const { events, receipts } = resolved.right;
      try {
        const sealed = events.map((event, index) => ({
          id: newId(),
          ...encodeMemoryEvent(event, write.causation, { batch: { id: batchId, index, size: events.length } }),
        }));
        const result = await ledger.append(stream, sealed, { expectedRevision: state.revision ?? 'no_stream' });
        // The committed state is known: the next read continues from it.
        cache.set(profile, {
          profile,
          entries: resolved.right.entries,
          revision: result.nextExpectedRevision,
          position: result.position,
          lastEventId: sealed[sealed.length - 1]!.id,
        });
        return { profile, stream, revision: result.nextExpectedRevision, position: result.position, receipts };
      } catch (error) {
        if (!isLedgerError(error, 'wrong_expected_version') || attempt >= maxAttempts) throw error;
        // Another writer committed first: a short random pause spreads out writers that keep colliding.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
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
