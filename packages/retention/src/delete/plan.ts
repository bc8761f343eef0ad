import type { Coverage } from '../coverage/coverage.js';
import type { Lineage } from '../types.js';
import { deletionOrder } from './order.js';

/** One stream a deletion tombstones: the revision the tombstone is conditional on, and its chain head then. */
export interface PlannedStream {
  stream: string;
  revision: bigint;
  chainHead: string | null;
}

/** What a deletion will do, as its audit record of intent names it: every stream, in the order they go. */
export interface DeletionPlan {
  rootId: string;
  requestedId: string;
  lineage: Lineage;
  /** As the export covers them (conversation by conversation, root to tip): the outcome record lists them so. */
  streams: PlannedStream[];
  /** The same streams in deletion order (delegated children deepest first, each conversation tip to root): the intent lists them so. */
  order: PlannedStream[];
}

export const planOf = (coverage: Coverage): DeletionPlan => ({
  rootId: coverage.conversations[0]!.rootId,
  requestedId: coverage.requestedId,
  lineage: coverage.lineage,
  streams: coverage.streams.map(({ stream, revision, chainHead }) => ({ stream, revision, chainHead })),
  order: deletionOrder(coverage).map(({ stream, revision, chainHead }) => ({ stream, revision, chainHead })),
});
