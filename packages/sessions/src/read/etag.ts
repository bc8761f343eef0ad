import { canonicalJson, sha256Hex } from '@session-ledger/core';

/**
 * The ETag of a conversation view: it names the revision every segment was read at. Two reads give
 * the same ETag exactly when no segment changed between them, so an HTTP If-Match can fence a write
 * or a deletion against any drift (an append, a rewrite, a new segment).
 */
export const conversationEtag = (segments: ReadonlyArray<{ sessionId: string; revision: bigint }>): string =>
  `"${sha256Hex(canonicalJson(segments.map(({ sessionId, revision }) => [sessionId, revision.toString()]))).slice(0, 32)}"`;

type Revisioned = ReadonlyArray<{ sessionId: string; revision: bigint }>;

/**
 * The ETag of a view as `GET /sessions/:id` gives it: the display of a conversation started by a
 * reset names the segments of the conversations shown above it too, so it moves when they change.
 */
export const viewEtag = (view: { segments: Revisioned; earlier?: { segments: Revisioned } }): string =>
  conversationEtag(view.earlier ? [...view.earlier.segments, ...view.segments] : view.segments);
