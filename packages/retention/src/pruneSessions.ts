import { ATTR, spanned, invalidInput, isLedgerError, withRetry, type Ledger, type RetryPolicy } from '@session-ledger/core';
import type { SessionListRow } from '@session-ledger/projections';
import { listConversationsAt } from '@session-ledger/sessions';
import { deleteSession } from './deleteSession.js';
import { pendingIntents, type PendingIntent } from './delete/intents.js';
import { resumeDeletion } from './resumeDeletion.js';
import type { BulkDeleteResult } from './deleteSessions.js';

export interface PruneOptions {
  /** Conversations whose last activity (and every delegated child's) is older than this are deleted. */
  olderThanMs: number;
  now?: Date;
  /** Report what would be deleted; delete nothing. */
  dryRun?: boolean;
  retry?: RetryPolicy;
  /**
   * Asked once with the root ids about to be deleted (not on a dry run, not when there are none):
   * false deletes nothing. The ids asked about are exactly the ones deleted (or skipped as live).
   */
  confirm?: (rootIds: string[]) => Promise<boolean>;
}

export type PruneResult = BulkDeleteResult & { dryRun: boolean; cutoff: string };

/** Top-level rows (not delegated from a conversation still listed), each with its delegated descendants. */
const groups = (rows: SessionListRow[]): SessionListRow[][] => {
  const rootOfSegment = new Map<string, string>();
  for (const row of rows) for (const segment of row.segments) rootOfSegment.set(segment, row.rootId);
  const children = new Map<string, SessionListRow[]>();
  const top: SessionListRow[] = [];
  for (const row of rows) {
    const parentRoot = row.link === 'delegation' && row.parentId !== null ? rootOfSegment.get(row.parentId) : undefined;
    if (parentRoot === undefined || parentRoot === row.rootId) top.push(row);
    else children.set(parentRoot, [...(children.get(parentRoot) ?? []), row]);
  }
  return top.map((row) => {
    const group = [row];
    for (let next = 0; next < group.length; next += 1) group.push(...(children.get(group[next]!.rootId) ?? []));
    return group;
  });
};

const failedWith = (result: PruneResult, id: string, error: unknown) => {
  if (!isLedgerError(error)) throw error;
  result.failed.push({ id, error: { type: error.type, message: error.message } });
};

/** A prune killed between tombstones left its intents open: the next prune finishes them first. */
const finishKilledPrunes = async (ledger: Ledger, pending: PendingIntent[], result: PruneResult, now: Date, retry?: RetryPolicy) => {
  for (const intent of pending.filter((open) => open.reason === 'prune')) {
    if (result.dryRun) {
      result.deleted.push(intent.plan.rootId);
      continue;
    }
    try {
      result.streams.push(...(await resumeDeletion(ledger, [intent], { now, retry })).deleted);
      result.deleted.push(intent.plan.rootId);
    } catch (error) {
      // The intent was not a killed run's but a live one's (a prune in another process), which recorded its outcome first.
      if (isLedgerError(error, 'session_deleted')) result.already_deleted.push(intent.plan.rootId);
      // Written to after the killed run judged it (the intent is closed): kept, as any conversation
      // written to since its listing is; it was reported failed, exit 1 (outside test, session 24).
      else if (isLedgerError(error, 'drift') || isLedgerError(error, 'partial_deletion')) result.skipped_active.push(intent.plan.rootId);
      else failedWith(result, intent.plan.rootId, error);
    }
  }
};

const olderThan = (row: SessionListRow, cutoff: number) => row.lastActivity !== null && Date.parse(row.lastActivity) < cutoff;

/**
 * `sessions prune --older-than AGE`: deletes every conversation idle for longer than AGE (with its
 * delegated children). A live conversation is never deleted: it is reported in skipped_active.
 */
const pruneSessionsUntraced = async (ledger: Ledger, options: PruneOptions): Promise<PruneResult> => {
  if (!Number.isSafeInteger(options.olderThanMs) || options.olderThanMs <= 0) throw invalidInput(`--older-than must be a positive duration: ${options.olderThanMs}`, 'olderThan');
  const now = options.now ?? new Date();
  const cutoff = now.getTime() - options.olderThanMs;
  const result: PruneResult = { deleted: [], already_deleted: [], skipped_active: [], failed: [], streams: [], dryRun: Boolean(options.dryRun), cutoff: new Date(cutoff).toISOString() };
  const all = await withRetry(() => pendingIntents(ledger.store), options.retry);
  await finishKilledPrunes(ledger, all, result, now, options.retry);
  const pending = all.filter((intent) => intent.reason !== 'prune');
  const { rows, position: listedUpTo } = await withRetry(() => listConversationsAt(ledger.store, { now }), options.retry);
  const chosen: string[] = [];
  for (const group of groups(rows)) {
    if (!group.every((row) => olderThan(row, cutoff))) continue;
    const rootId = group[0]!.rootId;
    if (result.deleted.includes(rootId) || result.skipped_active.includes(rootId)) continue; // an open prune intent of it, finished or kept above
    if (group.some((row) => row.live)) result.skipped_active.push(rootId);
    else chosen.push(rootId);
  }
  if (options.dryRun) return { ...result, deleted: [...result.deleted, ...chosen] };
  if (chosen.length > 0 && options.confirm && !(await options.confirm(chosen))) return result;
  for (const rootId of chosen) {
    try {
      // The age is judged again on the deletion's own read: the listing is older than its tombstones' conditions.
      const done = await deleteSession(ledger, rootId, { reason: 'prune', now, retry: options.retry, pending, idleBefore: new Date(cutoff), listedUpTo });
      result.deleted.push(rootId);
      result.streams.push(...done.deleted);
    } catch (error) {
      if (isLedgerError(error, 'session_active')) result.skipped_active.push(rootId);
      // Listed idle, then deleted by another run (a prune in another process) before this one got to it.
      else if (isLedgerError(error, 'session_deleted')) result.already_deleted.push(rootId);
      else failedWith(result, rootId, error);
    }
  }
  return result;
};

/** The public entry: `pruneSessionsUntraced` in a `session-ledger.prune` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const pruneSessions = spanned('session-ledger.prune', pruneSessionsUntraced, ([_ledger, options]) => ({ 'session_ledger.older_than_ms': options.olderThanMs, 'session_ledger.dry_run': Boolean(options.dryRun) }), (result) => ({ [ATTR.count]: result.deleted.length, 'session_ledger.skipped_active': result.skipped_active.length, 'session_ledger.failed': result.failed.length }));
