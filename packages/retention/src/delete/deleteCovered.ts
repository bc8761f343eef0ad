import type { Ledger, RetryPolicy } from '@session-ledger/core';
import type { Coverage } from '../coverage/coverage.js';
import type { DeletionReason } from '../types.js';
import { recordIntent, type ExportReference } from './audit.js';
import { finishDeletion } from './finish.js';
import { planOf } from './plan.js';
import { tombstoneAll } from './tombstone.js';
import { startedSince } from './startedSince.js';

export interface DeleteCoveredOptions {
  reason: DeletionReason;
  now: Date;
  export?: ExportReference | null;
  retry?: RetryPolicy;
  onDeleted?: (done: number, total: number) => void;
}

/**
 * Records the intent (every stream and the revision it goes at), then tombstones every covered
 * stream at the revision it was read at (children and tip first, sealed ancestors last), then any
 * compression child started since the coverage was read (startedSince.ts), then appends the
 * outcome. Throws drift when nothing could be deleted, partial_deletion when some streams went and
 * others stayed (both audited).
 */
export const deleteCovered = async (ledger: Ledger, coverage: Coverage, options: DeleteCoveredOptions): Promise<string[]> => {
  const plan = planOf(coverage);
  const details = { reason: options.reason, at: options.now, export: options.export ?? null };
  const intent = await recordIntent(ledger, plan, details);
  const outcome = await tombstoneAll(ledger.store, plan.order, {
    retry: options.retry,
    onDeleted: (done) => options.onDeleted?.(done, plan.streams.length),
  });
  // A compression child started under this deletion goes with its parent, and the outcome names it.
  const late = outcome.failure ? [] : await startedSince(ledger.store, coverage);
  if (late.length === 0) return finishDeletion(ledger, plan, outcome, { ...details, intent });
  const all = await tombstoneAll(ledger.store, late, { retry: options.retry, resuming: true, late: true, after: outcome });
  return finishDeletion(ledger, { ...plan, streams: [...plan.streams, ...late], order: [...late, ...plan.order] }, all, { ...details, intent });
};
