import { isLedgerError, type Ledger } from '@session-ledger/core';
import { deletedByAnotherRun, withNote } from '../errors.js';
import { recordAbandoned, recordDeletion, type DeletionDetails } from './audit.js';
import type { DeletionPlan } from './plan.js';
import type { TombstoneOutcome } from './tombstone.js';

/**
 * Closes an intent after its tombstones: the outcome record when anything went (complete or
 * partial), an abandoned record when nothing did; then throws the failure, if any. When another run
 * recorded the same outcome first, throws session_deleted: the deletion is that run's.
 */
export const finishDeletion = async (ledger: Ledger, plan: DeletionPlan, outcome: TombstoneOutcome, details: DeletionDetails & { intent: string }): Promise<string[]> => {
  if (outcome.deleted.length > 0) {
    let written: boolean | undefined;
    try {
      ({ written } = await recordDeletion(ledger, plan, outcome, details));
    } catch (error) {
      // The outcome's id derives from the intent and the streams that went: another run finishing the
      // same intent at once (two prunes on one file) recorded it first, with its own time and log entries.
      if (!isLedgerError(error, 'duplicate')) {
        throw withNote(error, `deleted ${outcome.deleted.join(', ')} but could not append the audit record (its intent is recorded: deleting again completes it)`);
      }
      written = false;
    }
    // Recorded first by that other run (refused as a duplicate, or a replay that wrote nothing): the
    // conversation is counted there, and this run reports it already deleted.
    if (written === false) throw deletedByAnotherRun(plan.rootId);
  } else if (outcome.failure) {
    // best effort: an intent left open is retried by the next deletion, which refuses the same way
    await recordAbandoned(ledger, details.intent, { type: outcome.failure.type, message: outcome.failure.message }, details.at).catch(() => undefined);
  }
  if (outcome.failure) throw outcome.failure;
  return outcome.deleted;
};
