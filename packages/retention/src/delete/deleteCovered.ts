import type { Ledger, RetryPolicy } from '@session-ledger/core';
import type { Coverage } from '../coverage/coverage.js';
import { withNote } from '../errors.js';
import type { DeletionReason } from '../types.js';
import { recordDeletion, type ExportReference } from './audit.js';
import { deletionOrder } from './order.js';
import { tombstoneAll } from './tombstone.js';

export interface DeleteCoveredOptions {
  reason: DeletionReason;
  now: Date;
  export?: ExportReference | null;
  retry?: RetryPolicy;
  onDeleted?: (done: number, total: number) => void;
}

/**
 * Tombstones every covered stream at the revision it was read at (children and tip first, sealed
 * ancestors last), then appends the audit record of what went. Throws drift when nothing could be
 * deleted, partial_deletion when some streams went and others stayed (both audited).
 */
export const deleteCovered = async (ledger: Ledger, coverage: Coverage, options: DeleteCoveredOptions): Promise<string[]> => {
  const ordered = deletionOrder(coverage);
  const outcome = await tombstoneAll(ledger.store, ordered, {
    retry: options.retry,
    onDeleted: (done) => options.onDeleted?.(done, ordered.length),
  });
  if (outcome.deleted.length > 0) {
    try {
      await recordDeletion(ledger, coverage, outcome, { reason: options.reason, at: options.now, export: options.export ?? null });
    } catch (error) {
      throw withNote(error, `deleted ${outcome.deleted.join(', ')} but could not append the audit record`);
    }
  }
  if (outcome.failure) throw outcome.failure;
  return outcome.deleted;
};
