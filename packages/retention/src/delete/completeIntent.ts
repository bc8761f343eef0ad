import type { Ledger, RetryPolicy } from '@session-ledger/core';
import { deletedByAnotherRun } from '../errors.js';
import { recordAbandoned } from './audit.js';
import { finishDeletion } from './finish.js';
import type { PendingIntent } from './intents.js';
import { tombstoneAll } from './tombstone.js';

/**
 * Finishes a deletion whose run stopped after recording its intent: tombstones each stream the
 * intent names at the revision it names (a stream already tombstoned counts as deleted; one that
 * moved since refuses, as it would have then), then appends the outcome naming the intent.
 * A stream another run's outcome record names as deleted is that run's, not this intent's: when
 * every stream this completion counts went that way (a concurrent deletion of the same conversation
 * finished while this intent's run was stopped), the intent is closed as abandoned and the
 * conversation is session_deleted, "deleted by another run", so it is counted deleted once and
 * audited once (outside test, session 16: a re-run reported it deleted again, with a second
 * outcome record).
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
  const own = outcome.deleted.filter((stream) => !intent.deletedByOthers.has(stream));
  if (own.length === 0 && outcome.deleted.length > 0 && !outcome.failure) {
    await recordAbandoned(ledger, intent.id, { type: 'session_deleted', message: `deleted by another run: ${outcome.deleted.join(', ')}` }, options.now);
    throw deletedByAnotherRun(intent.plan.rootId);
  }
  return finishDeletion(ledger, intent.plan, { ...outcome, deleted: own }, { reason: intent.reason, at: options.now, export: intent.export, intent: intent.id });
};
