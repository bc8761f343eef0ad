import type { EventStore, RetryPolicy } from '@session-ledger/core';
import { conversationEtag } from '@session-ledger/sessions';
import type { Coverage } from '../coverage/coverage.js';
import { readCoverage } from '../coverage/readCoverage.js';
import type { Lineage } from '../types.js';

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
});

/**
 * The review a person (the web page) or a client reads before a fenced deletion: the same read as the
 * deletion's own (segments and links only, so an event this version cannot decode never hides a
 * conversation from it), and the ETag that makes the DELETE delete exactly these streams or nothing.
 */
export const reviewDeletion = async (store: EventStore, anyId: string, options: { lineage?: Lineage; retry?: RetryPolicy } = {}): Promise<DeletionReview> =>
  reviewOf(await readCoverage(store, anyId, { lineage: options.lineage, retry: options.retry, read: 'structure' }));
