import { withRetry, type EventStore, type RetryPolicy } from '@session-ledger/core';
import { conversationEtag } from '@session-ledger/sessions';
import type { Coverage } from '../coverage/coverage.js';
import { readCoverage } from '../coverage/readCoverage.js';
import type { Lineage } from '../types.js';
import { intentsCovering, pendingIntents, type PendingIntent } from './intents.js';
import { unfinishedEtag, unfinishedOf, unfinishedStreams, type UnfinishedDeletion } from './unfinished.js';

/** One stream a deletion tombstones, at the revision it was read at, and the conversation it belongs to. */
export interface ReviewedStream {
  sessionId: string;
  revision: bigint;
  /** The conversation it is a segment of: the one asked for (depth 0), or a delegated child of one (link 'delegation'). */
  rootId: string;
  link: 'delegation' | null;
  depth: number;
}

/** What a deletion of `requestedId` would tombstone now, and the If-Match that fences exactly that. */
export interface DeletionReview {
  requestedId: string;
  rootId: string;
  lineage: Lineage;
  streams: ReviewedStream[];
  /** The ETag naming every stream above at its revision: DELETE with it in If-Match deletes these or nothing. */
  etag: string;
  /**
   * Deletions of this conversation started and stopped part way (a run killed between tombstones),
   * oldest first; empty when none. While any is listed, `streams` are the ones they name, at the
   * revisions their intents fix (some may be tombstoned already), and DELETE finishes them.
   */
  unfinished: UnfinishedDeletion[];
}

/**
 * The ETag of everything a deletion covers: every stream at the revision read, delegated children
 * included. Without delegated children (and lineage logical) it is the conversation's own ETag, the
 * one GET /sessions/:id gives, since that names the same segments at the same revisions.
 */
export const deletionEtag = (coverage: Coverage): string =>
  conversationEtag(coverage.streams.map(({ sessionId, revision }) => ({ sessionId, revision })));

export const reviewOf = (coverage: Coverage): DeletionReview => ({
  requestedId: coverage.requestedId,
  rootId: coverage.conversations[0]!.rootId,
  lineage: coverage.lineage,
  streams: coverage.conversations.flatMap(({ rootId, link, depth, segments }) =>
    segments.map(({ sessionId, events }) => ({ sessionId, revision: events[events.length - 1]!.revision, rootId, link, depth })),
  ),
  etag: deletionEtag(coverage),
  unfinished: [],
});

/**
 * The review of unfinished deletions: their streams, placed in the conversation as it reads now where
 * it still holds them (a stream already tombstoned, or outside what `anyId` covers, is shown as a
 * segment of the deletion's root).
 */
const unfinishedReview = (anyId: string, intents: readonly PendingIntent[], coverage: Coverage | null): DeletionReview => {
  const placed = new Map(
    (coverage?.conversations ?? []).flatMap(({ rootId, link, depth, segments }) => segments.map(({ sessionId }) => [sessionId, { rootId, link, depth }] as const)),
  );
  const rootId = intents[0]!.plan.rootId;
  return {
    requestedId: anyId,
    rootId,
    lineage: intents[0]!.plan.lineage,
    streams: unfinishedStreams(intents).map(({ sessionId, revision }) => ({ sessionId, revision, ...(placed.get(sessionId) ?? { rootId, link: null, depth: 0 }) })),
    etag: unfinishedEtag(intents),
    unfinished: unfinishedOf(intents),
  };
};

/**
 * The review a person (the web page) or a client reads before a fenced deletion: the same read as the
 * deletion's own (segments and links only, so an event this version cannot decode never hides a
 * conversation from it), and the ETag that makes the DELETE delete exactly these streams or nothing.
 */
export const reviewDeletion = async (store: EventStore, anyId: string, options: { lineage?: Lineage; retry?: RetryPolicy } = {}): Promise<DeletionReview> => {
  const intents = intentsCovering(await withRetry(() => pendingIntents(store), options.retry), anyId);
  if (intents.length === 0) return reviewOf(await readCoverage(store, anyId, { lineage: options.lineage, retry: options.retry, read: 'structure' }));
  // the segment asked for may be tombstoned already: the unfinished deletion is still what DELETE does
  const coverage = await readCoverage(store, anyId, { lineage: intents[0]!.plan.lineage, retry: options.retry, read: 'structure' }).catch(() => null);
  return unfinishedReview(anyId, intents, coverage);
};
