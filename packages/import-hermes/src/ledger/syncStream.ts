import { isLedgerError, type ChainHead, type ExpectedRevision, type Ledger, type LedgerAppendResult } from '@session-ledger/core';
import type { PlannedEvent } from '../mapping/stepEvent.js';

/** A planned event whose id is known up front; it is encoded (and validated) only if it must be written. */
export interface LazyEvent {
  id: string;
  /** What the step is, for messages. */
  kind: string;
  build: () => PlannedEvent;
}
import { readIds } from './readIds.js';

export type SyncOutcome =
  | { kind: 'synced'; existing: number; written: PlannedEvent[] }
  | { kind: 'conflict'; existing: number; written: PlannedEvent[]; reason: string };

export interface SyncOptions {
  dryRun: boolean;
  batchSize: number;
  onBatch?: (written: PlannedEvent[]) => void;
}

/**
 * Brings one stream up to `planned`: what it already holds must be a prefix of the plan (same ids
 * in the same places); the rest is appended in batches, each conditional on the exact revision
 * before it. An interrupted import resumes after the last batch; a repeated one writes nothing.
 */
export const syncStream = async (ledger: Ledger, stream: string, planned: LazyEvent[], options: SyncOptions): Promise<SyncOutcome> => {
  const held = await readIds(ledger.store, stream);
  if (held.kind === 'deleted') return { kind: 'conflict', existing: 0, written: [], reason: 'the session was deleted in the ledger' };
  const ids = held.kind === 'present' ? held.ids : [];
  for (let i = 0; i < ids.length; i += 1) {
    if (i >= planned.length || ids[i] !== planned[i]!.id) {
      const reason =
        i >= planned.length
          ? `the ledger holds ${ids.length - planned.length} event(s) after what this file has for the session (written since, or from a newer copy)`
          : `the source differs from what was imported before at event ${i} (${planned[i]!.kind}); the ledger is left as it is`;
      return { kind: 'conflict', existing: ids.length, written: [], reason };
    }
  }
  // Encoded before anything is written: an event the schema refuses leaves the stream untouched.
  const rest = planned.slice(ids.length).map((event) => event.build());
  if (options.dryRun) return { kind: 'synced', existing: ids.length, written: rest };
  let expected: ExpectedRevision = held.kind === 'present' ? held.lastRevision : 'no_stream';
  // The chain head each append continues: from the read above, then from the previous append, so the
  // ledger never reads back what this import just wrote.
  let head: ChainHead | null = held.kind === 'present' ? held.head : null;
  const written: PlannedEvent[] = [];
  for (let start = 0; start < rest.length; start += options.batchSize) {
    const batch = rest.slice(start, start + options.batchSize);
    try {
      const result = await ledger.append(
        stream,
        batch,
        { expectedRevision: expected, head },
      );
      expected = result.nextExpectedRevision;
      head = (result as LedgerAppendResult).head;
    } catch (error) {
      if (!isLedgerError(error, 'wrong_expected_version') && !isLedgerError(error, 'stream_deleted')) throw error;
      return { kind: 'conflict', existing: ids.length, written, reason: `another writer changed the session during the import: ${error.message}` };
    }
    written.push(...batch);
    options.onBatch?.(batch);
  }
  return { kind: 'synced', existing: ids.length, written };
};
