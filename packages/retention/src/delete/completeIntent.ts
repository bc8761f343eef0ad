import type { Ledger, RetryPolicy } from '@session-ledger/core';
import { finishDeletion } from './finish.js';
import type { PendingIntent } from './intents.js';
import { tombstoneAll } from './tombstone.js';

/**
 * Finishes a deletion whose run stopped after recording its intent: tombstones each stream the
 * intent names at the revision it names (a stream already tombstoned counts as deleted; one that
 * moved since refuses, as it would have then), then appends the outcome naming the intent.
 */
export const completeIntent = async (
  ledger: Ledger,
  intent: PendingIntent,
  options: { now: Date; retry?: RetryPolicy; onDeleted?: (done: number, total: number) => void },
): Promise<string[]> => {
  const outcome = await tombstoneAll(ledger.store, intent.plan.order, {
    retry: options.retry,
    resuming: true,
    onDeleted: (done) => options.onDeleted?.(done, intent.plan.streams.length),
  });
  return finishDeletion(ledger, intent.plan, outcome, { reason: intent.reason, at: options.now, export: intent.export, intent: intent.id });
};
