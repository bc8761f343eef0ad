import { deterministicId, jsonSafe, type JsonObject, type Ledger } from '@session-ledger/core';
import type { Coverage } from '../coverage/coverage.js';
import type { DeletionReason } from '../types.js';

/** The stream of deletion records (the retention module's own; a raw append there is refused). */
export const AUDIT_STREAM = 'ledger-audit';

export const DELETION_EVENT = 'retention.deleted';

/** What an export-then-delete adds to the audit record. */
export interface ExportReference {
  file: string;
  format: string;
  view: string;
  digest: string;
}

/**
 * Appends, through the hash-chained ledger, what a deletion did: the streams with the revisions and
 * chain heads they were deleted at, what was kept (a partial deletion), the export if any, why and
 * when. Never any content. The id derives from the streams and revisions, so a retry writes nothing.
 */
export const recordDeletion = async (
  ledger: Ledger,
  coverage: Coverage,
  outcome: { deleted: string[]; kept: string[] },
  details: { reason: DeletionReason; at: Date; export?: ExportReference | null },
) => {
  const streams = coverage.streams.map(({ stream, revision, chainHead }) => ({ stream, revision: jsonSafe(revision), chainHead }));
  const data = {
    rootId: coverage.conversations[0]!.rootId,
    requestedId: coverage.requestedId,
    lineage: coverage.lineage,
    reason: details.reason,
    streams,
    deleted: outcome.deleted,
    kept: outcome.kept,
    complete: outcome.kept.length === 0,
    export: details.export ? { ...details.export } : null,
    at: details.at.toISOString(),
  } as JsonObject;
  const id = deterministicId(DELETION_EVENT, ...coverage.streams.map((s) => `${s.stream}@${s.revision}`), ...outcome.deleted);
  return ledger.append(AUDIT_STREAM, [{ id, type: DELETION_EVENT, data }], { expectedRevision: 'any' });
};
