import { isLedgerError, ledgerError, withRetry, type DeletionRecord, type EventStore, type LedgerError, type RetryPolicy } from '@session-ledger/core';
import type { PlannedStream } from './plan.js';
import { sessionIdOf } from '@session-ledger/events';
import { driftError } from '../errors.js';

export interface TombstoneOutcome {
  /** Streams tombstoned, in order. */
  deleted: string[];
  /** Streams still stored. */
  kept: string[];
  /** Why the deletion stopped; null when every stream went. */
  failure: LedgerError | null;
  /** The store's log record of each tombstone this run made (stores with a log commitment): where the audit record points. */
  logged: DeletionRecord[];
}

const currentOf = (error: unknown): string | null =>
  isLedgerError(error, 'wrong_expected_version') ? error.details.actual : isLedgerError(error, 'stream_deleted') ? 'deleted' : null;

/**
 * How to finish a partial deletion. A child started while this deletion ran (`late`, startedSince.ts)
 * and written to since is kept, what was written there never read; deleting its parent again answers
 * session_deleted, so the way to finish is deleting the child (outside test, session 24, E-2: the
 * error said "delete again", and the child lived on).
 */
const toFinish = (stream: PlannedStream, current: string | null, late: boolean): string => {
  const sessionId = sessionIdOf(stream.stream);
  if (!late || current === null || current === 'deleted' || sessionId === null) return 'delete again to finish';
  return `it was started and written to while this deletion ran, and what was written there was never read; delete session ${sessionId} to finish`;
};

/** The failure in the caller's words: drift when nothing was deleted yet, partial_deletion otherwise. */
const failureOf = (error: unknown, stream: PlannedStream, deleted: string[], kept: string[], late: boolean): LedgerError => {
  const current = currentOf(error);
  const exported = stream.revision.toString();
  if (deleted.length === 0) {
    if (current !== null) return driftError(stream.stream, exported, current, 'nothing was deleted');
    if (isLedgerError(error)) return error;
    throw error;
  }
  const why = current === null ? (error instanceof Error ? error.message : String(error)) : `read at revision ${exported}, now ${current}`;
  return ledgerError(
    'partial_deletion',
    `Deleted ${deleted.join(', ')}; kept ${kept.join(', ')}: ${stream.stream} could not be deleted (${why}); ${toFinish(stream, current, late)}`,
    { deleted, kept, stream: stream.stream, exported, current: current ?? 'unknown' },
  );
};

/**
 * Tombstones each stream conditionally on the exact revision it was read at (EventStoreDB's rule:
 * a stream that moved is refused). Stops at the first refusal and says what was deleted and kept.
 */
export const tombstoneAll = async (
  store: EventStore,
  streams: PlannedStream[],
  /**
   * resuming: finishing a recorded intent, where a stream already tombstoned went in the run that
   * stopped. late: the streams are children started while this deletion ran (startedSince.ts).
   */
  options: { retry?: RetryPolicy; onDeleted?: (done: number) => void; resuming?: boolean; late?: boolean; after?: TombstoneOutcome } = {},
): Promise<TombstoneOutcome> => {
  /** `after`: the outcome of this deletion's earlier tombstones, which these continue. */
  const deleted: string[] = [...(options.after?.deleted ?? [])];
  const logged: DeletionRecord[] = [...(options.after?.logged ?? [])];
  // All or none where the store can (SQLite): a write landing in the root after the children went
  // left the children erased and the root kept, 409 partial_deletion even under a matching If-Match
  // (outside test, session 33, helper-92 F2). Resuming an intent goes stream by stream (some went).
  if (store.tombstoneStreams && !options.resuming && streams.length > 1) {
    try {
      const results = await withRetry(() => store.tombstoneStreams!(streams.map((s) => ({ stream: s.stream, expectedRevision: s.revision }))), options.retry);
      for (const [index, stream] of streams.entries()) {
        const record = results[index]?.deletion;
        if (record) logged.push(record);
        deleted.push(stream.stream);
        options.onDeleted?.(deleted.length);
      }
      return { deleted, kept: [], failure: null, logged };
    } catch (error) {
      const named = isLedgerError(error) ? (error.details as { stream?: unknown }).stream : undefined;
      const refused = streams.find((s) => s.stream === named) ?? streams[0]!;
      const kept = streams.map((s) => s.stream);
      return { deleted, kept, failure: failureOf(error, refused, deleted, kept, options.late === true), logged };
    }
  }
  for (const [index, stream] of streams.entries()) {
    try {
      const result = await withRetry(() => store.tombstoneStream(stream.stream, { expectedRevision: stream.revision }), options.retry);
      if (result.deletion) logged.push(result.deletion);
    } catch (error) {
      if (options.resuming && isLedgerError(error, 'stream_deleted')) {
        deleted.push(stream.stream);
        options.onDeleted?.(deleted.length);
        continue;
      }
      const kept = streams.slice(index).map((s) => s.stream);
      return { deleted, kept, failure: failureOf(error, stream, deleted, kept, options.late === true), logged };
    }
    deleted.push(stream.stream);
    options.onDeleted?.(deleted.length);
  }
  return { deleted, kept: [], failure: null, logged };
};
