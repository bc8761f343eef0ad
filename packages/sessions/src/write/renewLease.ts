import { newId } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import { leaseUntil, nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { runSegment, writeResultOf } from './runSegment.js';

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
  const command = { kind: 'renew_lease', sessionId: checkSafeId(sessionId, 'sessionId'), eventId: newId(), turnId: checkSafeId(turnId, 'turnId'), leaseExpiresAt, now } as const;
  const handled = await runSegment(context.ledger, command, input.expectedRevision);
  return { ...writeResultOf(sessionId, handled), turnId, leaseExpiresAt };
};
