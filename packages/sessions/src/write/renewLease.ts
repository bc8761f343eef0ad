import { deterministicId } from '@session-ledger/core';
import { leaseUntil, nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { turnNotFound } from '../errors.js';
import { appendToSegment } from './appendToSegment.js';
import { readOwnTurn } from './currentTurn.js';

export type RenewLeaseResult = WriteResult & { turnId: string; leaseExpiresAt: string };

/** Extends the lease of the session's current turn to `now + ttlMs` (an expired lease may be renewed while no other turn began). */
export const renewLease = async (
  context: WriterContext,
  sessionId: string,
  turnId: string,
  input: Conditional & { ttlMs: number },
): Promise<RenewLeaseResult> => {
  const now = nowOf(context);
  const leaseExpiresAt = leaseUntil(now, input.ttlMs);
  const { tail, turn } = await readOwnTurn(context.ledger, sessionId, turnId, now);
  if (turn.ended) throw turnNotFound(sessionId, turnId, 'has ended');
  const result = await appendToSegment(context.ledger, sessionId, { expectedRevision: input.expectedRevision, tail }, (expected) => [
    {
      id: deterministicId(sessionId, 'turn.lease_renewed', turnId, expected),
      type: 'turn.lease_renewed',
      data: { turnId, leaseExpiresAt, renewedAt: now.toISOString() },
    },
  ]);
  return { ...result, turnId, leaseExpiresAt };
};
