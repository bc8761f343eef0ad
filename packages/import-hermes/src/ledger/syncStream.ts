import { appendChunks, eventBytes, isLedgerError, readStreamState, type EventStore, type RecordedEvent, type ChainHead, type ExpectedRevision, type Ledger, type LedgerAppendResult } from '@session-ledger/core';
import type { PlannedEvent } from '../mapping/stepEvent.js';
import { deletedReason } from './deletedSession.js';
import { readIds } from './readIds.js';
import { continuesElsewhere, reconcile, type Reconciled, type ReconcileSource } from './reconcile.js';
import { sessionStream } from '@session-ledger/events';

/**
 * A planned event, built (and so checked) before anything of its session is written, with what its
 * step is (a conflict report names it).
 */
export interface SyncEvent {
  kind: string;
  event: PlannedEvent;
}

/** `written`: how many events this run wrote (or, in a dry run, would write); each batch went to `onBatch`. */
export type SyncOutcome =
  | { kind: 'synced'; existing: number; written: number }
  | { kind: 'conflict'; existing: number; written: number; reason: string };

export interface SyncOptions {
  dryRun: boolean;
  batchSize: number;
  /** Each batch once written (in a dry run: each batch that would be), for the report's counts and progress. */
  onBatch?: (written: PlannedEvent[]) => void;
  /** What reconcile needs to know of the session's rows in the source. */
  source: ReconcileSource;
}

/** reconcile, with what it needs read from the ledger: whether the child the plan continues in is new to it (`continuesElsewhere`). */
export const reconcileHeld = async (store: EventStore, stream: string, held: readonly RecordedEvent[], planned: SyncEvent[], source: ReconcileSource): Promise<Reconciled> => {
  const elsewhere = continuesElsewhere(held, planned);
  if (elsewhere === null) return reconcile(stream, held, planned, source);
  return reconcile(stream, held, planned, { ...source, plannedChildFree: (await readStreamState(store, sessionStream(elsewhere))).state === 'absent' });
};

/**
 * Brings one stream up to `planned`: what it already holds must be a prefix of the plan (same ids
 * in the same places), beside what a Hermes rewrite retired (`reconcile`); the rest is appended in
 * batches (of `batchSize` events and at most APPEND_BYTES of text), each conditional on the exact
 * revision before it. An interrupted import resumes after the last batch; a repeated one writes nothing.
 */
export const syncStream = async (ledger: Ledger, stream: string, planned: SyncEvent[], options: SyncOptions): Promise<SyncOutcome> => {
  const held = await readIds(ledger.store, stream);
  if (held.kind === 'deleted') return { kind: 'conflict', existing: 0, written: 0, reason: await deletedReason(ledger.store, stream, planned.length) };
  const ids = held.kind === 'present' ? held.ids : [];
  const reconciled = await reconcileHeld(ledger.store, stream, held.kind === 'present' ? held.events : [], planned, options.source);
  if (reconciled.kind === 'conflict') return { kind: 'conflict', existing: ids.length, written: 0, reason: reconciled.reason };
  const rest = reconciled.events.length;
  // Batches of batchSize events and at most APPEND_BYTES of text: EventStoreDB refuses a larger append (appendChunks.ts).
  const batches = appendChunks(reconciled.events, (item) => eventBytes(item.event), options.batchSize).map((chunk) => chunk.map((item) => item.event));
  if (options.dryRun) {
    for (const batch of batches) options.onBatch?.(batch);
    return { kind: 'synced', existing: ids.length, written: rest };
  }
  let expected: ExpectedRevision = held.kind === 'present' ? held.lastRevision : 'no_stream';
  // The chain head each append continues: from the read above, then from the previous append, so the
  // ledger never reads back what this import just wrote.
  let head: ChainHead | null = held.kind === 'present' ? held.head : null;
  let written = 0;
  /** Batches another writer (a racing import of the same source) had stored, found by the append's idempotent replay: present, not written here. */
  let found = 0;
  for (const batch of batches) {
    try {
      const result = await ledger.append(
        stream,
        batch,
        { expectedRevision: expected, head },
      );
      expected = result.nextExpectedRevision;
      head = (result as LedgerAppendResult).head;
      if (result.written === false) {
        found += batch.length;
        continue;
      }
    } catch (error) {
      if (!isLedgerError(error, 'wrong_expected_version') && !isLedgerError(error, 'stream_deleted')) throw error;
      return { kind: 'conflict', existing: ids.length + found, written, reason: `another writer changed the session during the import: ${error.message}` };
    }
    written += batch.length;
    options.onBatch?.(batch);
  }
  return { kind: 'synced', existing: ids.length + found, written };
};
