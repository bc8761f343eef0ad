import { deterministicId, ledgerError, type Decider, type Decision, type RecordedEvent } from '@session-ledger/core';
import { decodeMemoryEvent, encodeMemoryEvent, type Causation } from '@session-ledger/events';
import { emptyMemoryEntries, reduceMemoryEntries, type MemoryEntriesView } from '@session-ledger/projections';
import * as E from 'fp-ts/lib/Either.js';
import type { Budgets } from '../budgets.js';
import type { MemoryOperation, Receipt } from '../operations.js';
import { resolveBatch } from '../resolve.js';

/**
 * A batch committed under an id its caller gave (an idempotency key), newest first: where it starts,
 * how many events it holds and the digest of the operations asked for. A list shared between states
 * (each evolve adds a node in front), so folding costs nothing per batch without one.
 */
export interface KeyedBatch {
  id: string;
  digest: string;
  first: bigint;
  size: number;
  before: KeyedBatch | null;
}

/** A profile's entries and the revision they were folded to (-1n: no stream yet), and the id of the event there. */
export interface ProfileState extends MemoryEntriesView {
  revision: bigint;
  lastEventId: string | null;
  keyed: KeyedBatch | null;
}

/**
 * An ordered batch of memory operations; the batch id is chosen by the writer (the decider stays pure).
 * `key`: the batch id is the caller's, and `digest` the digest of its operations: a batch already
 * committed under it is answered, not applied again (a retry after a lost answer), and other
 * operations under it are refused (`duplicate`).
 */
export interface ApplyBatch {
  stream: string;
  batchId: string;
  operations: readonly MemoryOperation[];
  budgets: Budgets;
  causation?: Causation;
  key?: { digest: string };
}

/** What a batch decided: its receipts, or where the same batch, asked for under the same key, already lies. */
export type BatchReply = { receipts: Receipt[] } | { replayed: { first: bigint; size: number } };

/** metadata.batch of a keyed batch's first event, else null. */
const keyedAt = (event: RecordedEvent, before: KeyedBatch | null): KeyedBatch | null => {
  const batch = event.metadata.batch;
  if (typeof batch !== 'object' || batch === null || Array.isArray(batch)) return null;
  const { id, index, size, digest } = batch as Record<string, unknown>;
  if (index !== 0 || typeof id !== 'string' || typeof digest !== 'string' || typeof size !== 'number') return null;
  return { id, digest, first: event.revision, size, before };
};

const evolve = (state: ProfileState, event: RecordedEvent): ProfileState => ({
  ...reduceMemoryEntries({ entries: state.entries }, decodeMemoryEvent(event)),
  revision: event.revision,
  lastEventId: event.id,
  keyed: keyedAt(event, state.keyed) ?? state.keyed,
});

const keyedBatch = (keyed: KeyedBatch | null, id: string): KeyedBatch | null => {
  for (let node = keyed; node !== null; node = node.before) if (node.id === id) return node;
  return null;
};

/**
 * Resolves the batch against the entries (every selector once, budgets checked: resolve.ts) and
 * turns it into events whose ids derive from the batch and the revision decided on, so a decision
 * taken again after a conflict never reuses an id.
 */
const decide = (command: ApplyBatch, state: ProfileState): Decision<BatchReply> => {
  const { stream, batchId, operations, budgets, causation, key } = command;
  const earlier = key ? keyedBatch(state.keyed, batchId) : null;
  if (key && earlier) {
    if (earlier.digest !== key.digest) {
      throw ledgerError('duplicate', `Batch id ${batchId} is already committed in ${stream} with other operations (at revision ${earlier.first})`, { what: `batch ${batchId} in ${stream}` });
    }
    return { events: [], reply: { replayed: { first: earlier.first, size: earlier.size } } };
  }
  const resolved = resolveBatch(state.entries, operations, { stream, baseRevision: state.revision, batchId, budgets });
  if (E.isLeft(resolved)) throw resolved.left;
  const { events, receipts } = resolved.right;
  return {
    events: events.map((event, index) => ({
      // A caller's key may be any text, and another profile may use it too: the stream keeps its ids apart.
      id: key ? deterministicId('memory-event', stream, batchId, state.revision, index) : deterministicId(batchId, state.revision, index),
      ...encodeMemoryEvent(event, causation, { batch: { id: batchId, index, size: events.length, ...(key && index === 0 ? { digest: key.digest } : {}) } }),
    })),
    reply: { receipts },
  };
};

/** The memory profile decider: one stream `memory-<profile>`. */
export const memoryDecider: Decider<ApplyBatch, ProfileState, BatchReply> = {
  name: 'memory-profile',
  initialState: () => ({ ...emptyMemoryEntries(), revision: -1n, lastEventId: null, keyed: null }),
  evolve,
  decide,
};
