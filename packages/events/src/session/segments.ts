import { z } from 'zod';
import { CHILD_LINKS, isoTime, safeId } from './common.js';

/** history.compacted v1: in-place compaction; either every active item through a message, or listed messages. */
export const historyCompactedV1 = z
  .strictObject({
    throughMessageId: safeId.optional(),
    messageIds: z.array(safeId).min(1).optional(),
    summary: z.string(),
    summaryId: safeId,
    compactedAt: isoTime,
  })
  .refine((data) => (data.throughMessageId === undefined) !== (data.messageIds === undefined), {
    message: 'exactly one of throughMessageId and messageIds',
    path: ['throughMessageId'],
  });

/** session.continued v1: the segment ends here (sealed) and names its compression child. */
export const sessionContinuedV1 = z.strictObject({
  childId: safeId,
  summary: z.string(),
  summaryId: safeId,
  continuedAt: isoTime,
});

/** session.child_linked v1: a delegated or branched conversation starts from this segment. */
/**
 * session.continuation_withdrawn v1: the segment's continuation into `childId` is withdrawn, and the
 * segment takes writes again. The source the ledger imports from deleted that compression child and
 * went on in the segment (Hermes' `reopen_orphaned_compression_session`); the ledger keeps the child
 * as a conversation of its own.
 */
export const sessionContinuationWithdrawnV1 = z.strictObject({ childId: safeId, withdrawnAt: isoTime });

export const sessionChildLinkedV1 = z.strictObject({ childId: safeId, link: z.enum(CHILD_LINKS), linkedAt: isoTime });

export const sessionEndedV1 = z.strictObject({ reason: z.string().optional(), endedAt: isoTime });

/** session.reopened v1: an ended segment takes writes again (a harness resumed it: Hermes' `reopen_session`). */
export const sessionReopenedV1 = z.strictObject({ reopenedAt: isoTime });

export type HistoryCompacted = z.infer<typeof historyCompactedV1>;
export type SessionContinued = z.infer<typeof sessionContinuedV1>;
export type SessionContinuationWithdrawn = z.infer<typeof sessionContinuationWithdrawnV1>;
export type SessionChildLinked = z.infer<typeof sessionChildLinkedV1>;
export type SessionEnded = z.infer<typeof sessionEndedV1>;
export type SessionReopened = z.infer<typeof sessionReopenedV1>;
