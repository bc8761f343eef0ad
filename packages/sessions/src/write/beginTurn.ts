import { deterministicId } from '@session-ledger/core';
import { checkSafeId } from '@session-ledger/events';
import { isLeaseLive } from '@session-ledger/projections';
import { leaseUntil, nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { sessionActive, turnNotFound } from '../errors.js';
import { readSegmentTail } from '../read/segmentTail.js';
import { appendToSegment } from './appendToSegment.js';
import { assertWritable } from './writable.js';

export interface BeginTurnInput extends Conditional {
  /** Caller-given or deterministic from (segment, revision). */
  turnId?: string;
  owner?: string;
  /** How long the lease lasts unless renewed, in milliseconds. */
  ttlMs: number;
}

export type BeginTurnResult = WriteResult & { turnId: string; leaseExpiresAt: string };

/**
 * Begins a turn that owns the session until it ends or its lease expires (`now >= leaseExpiresAt`).
 * Refused with session_active while another turn's lease is live; the conditional append makes two
 * racing begins impossible (one of them gets wrong_expected_version).
 */
export const beginTurn = async (context: WriterContext, sessionId: string, input: BeginTurnInput): Promise<BeginTurnResult> => {
  const now = nowOf(context);
  const leaseExpiresAt = leaseUntil(now, input.ttlMs);
  const owner = input.owner ?? 'agent';
  const tail = await readSegmentTail(context.ledger.store, checkSafeId(sessionId, 'sessionId'), { turns: true });
  await assertWritable(context.ledger.store, tail);
  const expected = input.expectedRevision ?? tail.revision;
  const turnId = checkSafeId(input.turnId ?? deterministicId(sessionId, 'turn', expected), 'turnId');
  const current = tail.turn;
  if (current && current.turnId === turnId) {
    if (current.ended) throw turnNotFound(sessionId, turnId, 'has ended');
    return { sessionId, revision: tail.revision, position: tail.head.position, written: false, turnId, leaseExpiresAt: current.leaseExpiresAt };
  }
  if (current && !current.ended && isLeaseLive(current.leaseExpiresAt, now)) throw sessionActive(sessionId, current.turnId, sessionId);
  const result = await appendToSegment(context.ledger, sessionId, { expectedRevision: expected, tail }, () => [
    {
      id: deterministicId(sessionId, 'turn.started', turnId),
      type: 'turn.started',
      data: { turnId, owner, leaseExpiresAt, startedAt: now.toISOString() },
    },
  ]);
  return { ...result, turnId, leaseExpiresAt };
};
