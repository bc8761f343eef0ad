import { deterministicId, newId } from '@session-ledger/core';
import { checkName, checkNewId, checkSafeId } from '@session-ledger/events';
import { leaseUntil, nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import type { CommandOf } from '../decide/commands.js';
import { lineageTurnIds } from './lineageTurnIds.js';
import { runSegment, writeResultOf } from './runSegment.js';

export interface BeginTurnInput extends Conditional {
  /** Caller-given (a retry with it is a no-op) or a new UUID. */
  turnId?: string;
  owner?: string;
  /** How long the lease lasts unless renewed, in milliseconds. */
  ttlMs: number;
}

export type BeginTurnResult = WriteResult & { turnId: string; leaseExpiresAt: string };

/**
 * Begins a turn that owns the session until it ends or its lease expires (`now >= leaseExpiresAt`).
 * Refused with session_active while another turn's lease is live, and with turn_not_found for a
 * turn id used before in the conversation (in a compression child its ancestors' turns count too,
 * read only when the decider asks). Of two racing begins exactly one is stored: the other's
 * conditional append is refused, and deciding again it meets the winner's live turn (the rules are
 * in decide/segmentDecider.ts).
 */
export const beginTurn = async (context: WriterContext, sessionId: string, input: BeginTurnInput): Promise<BeginTurnResult> => {
  const now = nowOf(context);
  const leaseExpiresAt = leaseUntil(now, input.ttlMs);
  const turnId = checkNewId(input.turnId ?? newId(), 'turnId');
  // Shown in every session_active refusal and listing: no control character (outside test, session 21).
  if (input.owner !== undefined) checkName('owner', input.owner);
  const eventId = deterministicId(checkSafeId(sessionId, 'sessionId'), 'turn.started', turnId);
  const command: CommandOf<'begin_turn'> = { kind: 'begin_turn', sessionId, eventId, turnId, owner: input.owner ?? 'agent', leaseExpiresAt, now };
  let handled = await runSegment(context.ledger, command, input.expectedRevision);
  if (handled.reply.lineageNeeded) {
    command.lineageTurnIds = await lineageTurnIds(context.ledger, handled.state.started!);
    handled = await runSegment(context.ledger, command, input.expectedRevision);
  }
  return { ...writeResultOf(sessionId, handled), turnId, leaseExpiresAt: handled.reply.leaseExpiresAt! };
};
