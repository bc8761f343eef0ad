import { ATTR, spanned, isLedgerError, withRetry, type Ledger } from '@session-ledger/core';
import { pendingIntents } from './delete/intents.js';
import { deleteSession, type DeleteOptions, type DeleteResult } from './deleteSession.js';

/** The outcome of deleting several conversations (the CLI's --json form, plus what failed otherwise). */
export interface BulkDeleteResult {
  /** Ids whose conversation was deleted (or was covered by an earlier id's deletion). */
  deleted: string[];
  /** Ids already deleted before this call (by an earlier run, one killed part way included): nothing to do. */
  already_deleted: string[];
  /** Ids held by a live turn: not deleted. */
  skipped_active: string[];
  /** Ids not deleted for another reason (unknown, drift, store), with the error. */
  failed: Array<{ id: string; error: { type: string; message: string } }>;
  /** Stream names tombstoned. */
  streams: string[];
}

/** Deletes each conversation that is idle; a live one is skipped and reported, never deleted; one already deleted is reported as such (a re-run after a kill ends clean). */
const deleteSessionsUntraced = async (ledger: Ledger, ids: string[], options: Omit<DeleteOptions, 'ifMatch'> = {}): Promise<BulkDeleteResult> => {
  const result: BulkDeleteResult = { deleted: [], already_deleted: [], skipped_active: [], failed: [], streams: [] };
  const covered = new Set<string>();
  const pending = await withRetry(() => pendingIntents(ledger.store), options.retry);
  for (const id of ids) {
    if (covered.has(id)) {
      result.deleted.push(id);
      continue;
    }
    let done: DeleteResult;
    try {
      done = await deleteSession(ledger, id, { ...options, pending });
    } catch (error) {
      if (isLedgerError(error, 'session_active')) result.skipped_active.push(id);
      else if (isLedgerError(error, 'session_deleted')) result.already_deleted.push(id);
      else if (isLedgerError(error)) result.failed.push({ id, error: { type: error.type, message: error.message } });
      else throw error;
      continue;
    }
    for (const sessionId of done.sessionIds) covered.add(sessionId);
    result.deleted.push(id);
    result.streams.push(...done.deleted);
  }
  return result;
};

/** The public entry: `deleteSessionsUntraced` in a `session-ledger.delete_sessions` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const deleteSessions = spanned('session-ledger.delete_sessions', deleteSessionsUntraced, ([_ledger, ids]) => ({ 'session_ledger.requested': ids.length }), (result) => ({ [ATTR.count]: result.deleted.length, 'session_ledger.skipped_active': result.skipped_active.length, 'session_ledger.failed': result.failed.length }));
