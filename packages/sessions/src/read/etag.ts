import { canonicalJson, sha256Hex } from '@session-ledger/core';

/**
 * The ETag of a conversation view: it names the revision every segment was read at. Two reads give
 * the same ETag exactly when no segment changed between them, so an HTTP If-Match can fence a write
 * or a deletion against any drift (an append, a rewrite, a new segment).
 */
export const conversationEtag = (segments: ReadonlyArray<{ sessionId: string; revision: bigint }>): string =>
  `"${sha256Hex(canonicalJson(segments.map(({ sessionId, revision }) => [sessionId, revision.toString()]))).slice(0, 32)}"`;
