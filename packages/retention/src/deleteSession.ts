import { ATTR, spanned, isLedgerError, ledgerError, withRetry, type Ledger, type LedgerError, type RetryPolicy } from '@session-ledger/core';
import { sessionIdOf } from '@session-ledger/events';
import { readCoverage } from './coverage/readCoverage.js';
import { deleteCovered } from './delete/deleteCovered.js';
import { assertIdle } from './delete/liveLease.js';
import { assertIdleBefore } from './delete/idleBefore.js';
import { checkIfMatch } from './delete/ifMatch.js';
import { intentsCovering, pendingIntents, type PendingIntent } from './delete/intents.js';
import { resumeDeletion } from './resumeDeletion.js';
import { checkSameConversation, checkUnfinishedIfMatch } from './delete/unfinished.js';
import { readStart } from '@session-ledger/sessions';
import type { DeletionReason, Lineage } from './types.js';

export interface DeleteOptions {
  lineage?: Lineage;
  /** When the lease check is made; default: the system clock. */
  now?: Date;
  reason?: DeletionReason;
  /** An HTTP If-Match: the ETag of the deletion review (reviewDeletion) or of the view the caller saw ('*': whatever is current; delete/ifMatch.ts). */
  ifMatch?: string;
  retry?: RetryPolicy;
  /** The pending intents, when the caller read them already (bulk deletions read the audit stream once). */
  pending?: readonly PendingIntent[];
  /**
   * Delete only if every covered conversation was last active before this instant, judged on the read
   * the tombstones are conditional on (prune's cutoff); else session_active, nothing deleted.
   */
  idleBefore?: Date;
  /** With idleBefore: the $all position the caller's listing read up to; an event stored after it makes the conversation active too. */
  listedUpTo?: bigint;
}

export interface DeleteResult {
  requestedId: string;
  rootId: string;
  /** Every covered segment id. */
  sessionIds: string[];
  /** Stream names tombstoned, in the order they went. */
  deleted: string[];
}

/**
 * Deletes a conversation by any of its ids: one read, the live-lease guard on it, then tombstones
 * conditional on the revisions read (so a turn or message that lands in between makes it fail).
 * The read decodes only segments and turns: an event this version cannot decode does not block it.
 * A deletion of this session whose intent was recorded but not completed (a run killed between
 * tombstones) is completed instead, at the revisions its intent names (an If-Match must then name
 * that unfinished deletion, as the review shows it: delete/unfinished.ts); if it cannot be completed
 * (the session moved since), that intent is closed and the session deleted afresh.
 */
const deleteSessionUntraced = async (ledger: Ledger, anyId: string, options: DeleteOptions = {}): Promise<DeleteResult> => {
  const now = options.now ?? new Date();
  const pending = intentsCovering(options.pending ?? (await withRetry(() => pendingIntents(ledger.store), options.retry)), anyId);
  let interrupted: unknown = null;
  if (pending.length > 0) {
    if (options.ifMatch !== undefined && options.ifMatch.trim() !== '*') checkUnfinishedIfMatch(pending, anyId, options.ifMatch);
    else checkSameConversation(pending, anyId, await conversationOf(ledger, anyId, pending));
    try {
      return { requestedId: anyId, ...(await resumeDeletion(ledger, pending, { now, retry: options.retry })) };
    } catch (error) {
      // drift: the intent's first stream moved, nothing went (its run was killed before any tombstone,
      // and the session was written since); the intent is closed as abandoned. partial_deletion: some
      // of it had gone and a stream it names moved since; the intent is closed with what went. Either
      // way this request goes on as a fresh deletion, fenced by its own If-Match: a 409 "delete again"
      // described the killed run, not this request (outside test, session 24).
      if (!isLedgerError(error, 'drift') && !isLedgerError(error, 'partial_deletion')) throw error;
      interrupted = error;
    }
  }
  const coverage = await readCoverage(ledger.store, anyId, { lineage: options.lineage, retry: options.retry, read: 'structure' }).catch((error: unknown) => {
    // The segment asked for went in that completion (one of several unfinished deletions finished,
    // another refused): its refusal says what went and what was kept, where session_deleted said
    // neither (outside test, session 24).
    throw interrupted !== null && isLedgerError(error, 'session_deleted') ? interrupted : error;
  });
  if (options.ifMatch !== undefined) await checkIfMatch(ledger, coverage, anyId, options.ifMatch);
  assertIdle(coverage, now);
  if (options.idleBefore !== undefined) assertIdleBefore(coverage, options.idleBefore, options.listedUpTo);
  const deleted = await deleteCovered(ledger, coverage, { reason: options.reason ?? 'delete', now, retry: options.retry });
  return { requestedId: anyId, rootId: coverage.conversations[0]!.rootId, sessionIds: coverage.streams.map((s) => s.sessionId), deleted };
};

/** The conversation (root id) of the segment `anyId`: the root an intent names it by, else its start's; null when it cannot be read (gone). */
const conversationOf = async (ledger: Ledger, anyId: string, intents: readonly PendingIntent[]): Promise<string | null> => {
  if (intents.some((intent) => intent.plan.rootId === anyId)) return anyId;
  return readStart(ledger.store, anyId).then(
    (start) => start.data.rootId,
    () => null,
  );
};

/** How many times a deletion of whatever is current (no If-Match, or `*`) is tried when the session moves under it. */
const DRIFT_ATTEMPTS = 3;

/**
 * A drift (a write landed between the read and a conditional tombstone; nothing was deleted, the
 * intent closed as abandoned): with an If-Match naming a view, the session changed since that view,
 * so it is precondition_failed (HTTP 412); with none or `*` ("whatever is current"), it is read and
 * tried again, DRIFT_ATTEMPTS in all, and the drift stands only if it kept moving.
 */
const deleteSessionOrDrift = async (ledger: Ledger, anyId: string, options: DeleteOptions = {}): Promise<DeleteResult> => {
  const anyCurrent = options.ifMatch === undefined || options.ifMatch.trim() === '*';
  /** Streams an attempt tombstoned before a write landed (a store that deletes one stream a call: EventStoreDB), and its refusal. */
  const earlier: string[] = [];
  let partial: LedgerError | null = null;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const result = await deleteSessionUntraced(ledger, anyId, options);
      return earlier.length === 0 ? result : withEarlier(result, earlier);
    } catch (error) {
      // Whatever is current: the rest is read again and deleted, as after a drift (outside test,
      // session 33, helper-92 F2); what this run asked for gone meanwhile, the refusal stands.
      if (partial !== null && isLedgerError(error, 'session_deleted')) throw partial;
      // A write moved the stream (its current revision is known): not a store outage, whose refusal stands.
      if (anyCurrent && isLedgerError(error, 'partial_deletion') && /^\d+$/.test(error.details.current) && attempt < DRIFT_ATTEMPTS) {
        earlier.push(...error.details.deleted);
        partial = error;
        continue;
      }
      // Out of attempts after a part went: the first refusal says what went and to delete again.
      if (partial !== null && (isLedgerError(error, 'drift') || isLedgerError(error, 'partial_deletion'))) throw partial;
      if (!isLedgerError(error, 'drift')) throw error;
      if (!anyCurrent) {
        throw ledgerError('precondition_failed', `Session ${anyId} changed since it was read (If-Match ${options.ifMatch}): ${error.message}`, {
          expected: options.ifMatch!,
          current: error.details.current,
        });
      }
      if (attempt >= DRIFT_ATTEMPTS) throw error;
    }
  }
};

/** A deletion finished by another attempt: the streams the earlier ones tombstoned come first. */
const withEarlier = (result: DeleteResult, earlier: readonly string[]): DeleteResult => {
  const sessionIds = earlier.flatMap((stream) => sessionIdOf(stream) ?? []);
  return { ...result, sessionIds: [...new Set([...sessionIds, ...result.sessionIds])], deleted: [...earlier, ...result.deleted] };
};

/** The public entry: `deleteSessionUntraced` in a `session-ledger.delete_session` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const deleteSession = spanned('session-ledger.delete_session', deleteSessionOrDrift, ([_ledger, anyId]) => ({ [ATTR.session]: anyId }), (result) => ({ [ATTR.stream]: result.deleted[0] ?? '', [ATTR.count]: result.deleted.length }));
