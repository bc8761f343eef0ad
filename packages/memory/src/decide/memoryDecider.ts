import { deterministicId, type Decider, type Decision, type RecordedEvent } from '@session-ledger/core';
import { decodeMemoryEvent, encodeMemoryEvent, type Causation } from '@session-ledger/events';
import { emptyMemoryEntries, reduceMemoryEntries, type MemoryEntriesView } from '@session-ledger/projections';
import * as E from 'fp-ts/lib/Either.js';
import type { Budgets } from '../budgets.js';
import type { MemoryOperation, Receipt } from '../operations.js';
import { resolveBatch } from '../resolve.js';

/** A profile's entries and the revision they were folded to (-1n: no stream yet), and the id of the event there. */
export interface ProfileState extends MemoryEntriesView {
  revision: bigint;
  lastEventId: string | null;
}

/** An ordered batch of memory operations; the batch id is chosen by the writer (the decider stays pure). */
export interface ApplyBatch {
  stream: string;
  batchId: string;
  operations: readonly MemoryOperation[];
  budgets: Budgets;
  causation?: Causation;
}

const evolve = (state: ProfileState, event: RecordedEvent): ProfileState => ({
  ...reduceMemoryEntries(state, decodeMemoryEvent(event)),
  revision: event.revision,
  lastEventId: event.id,
});

/**
 * Resolves the batch against the entries (every selector once, budgets checked: resolve.ts) and
 * turns it into events whose ids derive from the batch and the revision decided on, so a decision
 * taken again after a conflict never reuses an id.
 */
const decide = (command: ApplyBatch, state: ProfileState): Decision<Receipt[]> => {
  const { stream, batchId, operations, budgets, causation } = command;
  const resolved = resolveBatch(state.entries, operations, { stream, baseRevision: state.revision, batchId, budgets });
  if (E.isLeft(resolved)) throw resolved.left;
  const { events, receipts } = resolved.right;
  return {
    events: events.map((event, index) => ({
      id: deterministicId(batchId, state.revision, index),
      ...encodeMemoryEvent(event, causation, { batch: { id: batchId, index, size: events.length } }),
    })),
    reply: receipts,
  };
};

/** The memory profile decider: one stream `memory-<profile>`. */
export const memoryDecider: Decider<ApplyBatch, ProfileState, Receipt[]> = {
  name: 'memory-profile',
  initialState: () => ({ ...emptyMemoryEntries(), revision: -1n, lastEventId: null }),
  evolve,
  decide,
};
