import { deterministicId, jsonSafe, newId, type DeletionRecord, type JsonObject, type Ledger } from '@session-ledger/core';
import type { DeletionReason } from '../types.js';
import type { DeletionPlan } from './plan.js';

/** The stream of deletion records (the retention module's own; a raw append there is refused). */
export const AUDIT_STREAM = 'ledger-audit';

/** The outcome of a deletion: what went, what stayed. */
export const DELETION_EVENT = 'retention.deleted';
/** Written before the first tombstone: what will be deleted. */
export const INTENT_EVENT = 'retention.deletion_intended';
/** Closes an intent of which nothing could be deleted (the conversation moved first). */
export const ABANDONED_EVENT = 'retention.deletion_abandoned';

/** What an export-then-delete adds to the audit records. */
export interface ExportReference {
  file: string;
  format: string;
  view: string;
  digest: string;
  /** sha256 of the file as read back (in the intent: a re-run checks the file against it before it finishes the deletion). */
  fileSha256?: string;
}

export interface DeletionDetails {
  reason: DeletionReason;
  at: Date;
  export?: ExportReference | null;
}

/**
 * Where a tombstone sits in the store's log (docs/audit.md, "Deletion leaves"): its own leaf
 * (`leaf`, the log's size when it committed) and the leaves of the events it erased. An auditor
 * holding this record proves the deletion with `audit prove`-style inclusion of that leaf.
 */
const logEntryOf = (record: DeletionRecord) => ({
  stream: record.stream,
  leaf: record.logSize,
  fromRevision: jsonSafe(record.fromRevision),
  headRevision: jsonSafe(record.headRevision),
  headHash: record.headHash,
  firstLeaf: record.firstLeaf,
  lastLeaf: record.lastLeaf,
});

const streamsOf = (streams: DeletionPlan['streams']) => streams.map(({ stream, revision, chainHead }) => ({ stream, revision: jsonSafe(revision), chainHead }));

/**
 * The record of intent, appended through the hash-chained ledger BEFORE the first tombstone: every
 * stream that will go, in the order they go, with the revision its tombstone is conditional on, why, and the export if
 * any. A run that stops between tombstones leaves it without an outcome; the next deletion of any
 * of its streams (or the next prune) finishes it. Returns the intent's id (the outcome names it).
 */
export const recordIntent = async (ledger: Ledger, plan: DeletionPlan, details: DeletionDetails): Promise<string> => {
  const id = newId();
  const data = {
    rootId: plan.rootId,
    requestedId: plan.requestedId,
    lineage: plan.lineage,
    reason: details.reason,
    streams: streamsOf(plan.order),
    export: details.export ? { ...details.export } : null,
    at: details.at.toISOString(),
  } as JsonObject;
  await ledger.append(AUDIT_STREAM, [{ id, type: INTENT_EVENT, data }], { expectedRevision: 'any' });
  return id;
};

/**
 * The outcome, appended through the hash-chained ledger: the streams with the revisions and chain
 * heads they were deleted at, what was kept (a partial deletion), the export if any, why and when,
 * and the intent it completes. Never any content. The id derives from the intent and what went, so
 * a retry writes nothing.
 */
export const recordDeletion = async (
  ledger: Ledger,
  plan: DeletionPlan,
  outcome: { deleted: string[]; kept: string[]; logged: DeletionRecord[] },
  details: DeletionDetails & { intent: string },
) => {
  const data = {
    rootId: plan.rootId,
    requestedId: plan.requestedId,
    lineage: plan.lineage,
    reason: details.reason,
    streams: streamsOf(plan.streams),
    deleted: outcome.deleted,
    kept: outcome.kept,
    complete: outcome.kept.length === 0,
    log: outcome.logged.map(logEntryOf),
    export: details.export ? { ...details.export } : null,
    intent: details.intent,
    at: details.at.toISOString(),
  } as JsonObject;
  const id = deterministicId(DELETION_EVENT, details.intent, ...outcome.deleted);
  return ledger.append(AUDIT_STREAM, [{ id, type: DELETION_EVENT, data }], { expectedRevision: 'any' });
};

/** Closes an intent of which nothing was deleted, naming why. */
export const recordAbandoned = async (ledger: Ledger, intent: string, why: { type: string; message: string }, at: Date) =>
  ledger.append(
    AUDIT_STREAM,
    [{ id: deterministicId(ABANDONED_EVENT, intent), type: ABANDONED_EVENT, data: { intent, error: { ...why }, at: at.toISOString() } }],
    { expectedRevision: 'any' },
  );
