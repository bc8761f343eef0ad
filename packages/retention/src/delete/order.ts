import type { Coverage } from '../coverage/coverage.js';
import type { CoveredStream } from '../types.js';

/**
 * The order tombstones go in: delegated children before the segments that link them (deepest
 * first), each conversation from its tip back to its root. Whatever a failure leaves behind is
 * still reachable from the ids that remain, so deleting again finishes the job.
 */
export const deletionOrder = (coverage: Coverage): CoveredStream[] => {
  const bySession = new Map(coverage.streams.map((stream) => [stream.sessionId, stream]));
  const conversations = [...coverage.conversations].reverse().sort((a, b) => b.depth - a.depth);
  return conversations.flatMap((conversation) => [...conversation.segments].reverse().map((segment) => bySession.get(segment.sessionId)!));
};
