import type { Ledger } from '@session-ledger/core';
import { turnNotFound } from '../errors.js';
import { readSegmentTail, type SegmentTail, type TurnInfo } from '../read/segmentTail.js';
import { ownTurn } from './currentTurn.js';

/**
 * A message appended in a turn is fenced by that turn: it lands only while the turn is the
 * segment's latest and has not ended. A writer whose lease expired and whose session another turn
 * took over (a stalled harness coming back) is refused instead of writing into the new turn.
 * An expired lease nobody took over still fences nothing: the turn is still the latest.
 */

/** The latest turn of a segment as of one revision. */
interface KnownTurn {
  revision: bigint;
  turn: TurnInfo | null;
}

/**
 * Per ledger, per segment: the latest turn as of a revision, kept current by this writer's own
 * appends (noteAppended), so a harness appending turn after turn at its known revision reads nothing.
 * Keyed by the exact revision: any other writer's append makes it miss, and the tail is read again.
 */
const known = new WeakMap<Ledger, Map<string, KnownTurn>>();

const knownOf = (ledger: Ledger): Map<string, KnownTurn> => {
  let map = known.get(ledger);
  if (!map) known.set(ledger, (map = new Map()));
  return map;
};

/** The named turn must own the segment (ownTurn) and still be open. */
const check = (sessionId: string, turnId: string, latest: TurnInfo | null, now: Date): void => {
  if (ownTurn(sessionId, turnId, latest, now).ended) throw turnNotFound(sessionId, turnId, 'has ended');
};

/**
 * Refuses the append unless every named turn is the segment's latest, not ended (session_active
 * while another turn's lease is live, turn_not_found otherwise). Returns the tail when it read one.
 */
export const fenceTurns = async (
  ledger: Ledger,
  sessionId: string,
  turnIds: readonly string[],
  expectedRevision: bigint | undefined,
  now: Date,
): Promise<SegmentTail | undefined> => {
  const cached = expectedRevision === undefined ? undefined : known.get(ledger)?.get(sessionId);
  let tail: SegmentTail | undefined;
  let turn: TurnInfo | null;
  if (cached && cached.revision === expectedRevision) turn = cached.turn;
  else {
    tail = await readSegmentTail(ledger.store, sessionId, { turns: true });
    turn = tail.turn;
    knownOf(ledger).set(sessionId, { revision: tail.revision, turn });
  }
  for (const turnId of turnIds) check(sessionId, turnId, turn, now);
  return tail;
};

/** What appendToSegment wrote, as this module needs it. */
interface Written {
  type: string;
  data: unknown;
}

/** The latest turn after `events`, starting from `turn`. */
const turnAfter = (turn: TurnInfo | null, events: readonly Written[]): TurnInfo | null => {
  let latest = turn;
  for (const { type, data } of events) {
    const fields = data as { turnId: string; owner: string; leaseExpiresAt: string };
    if (type === 'turn.started') latest = { turnId: fields.turnId, owner: fields.owner, leaseExpiresAt: fields.leaseExpiresAt, ended: false };
    else if (type === 'turn.lease_renewed' && latest?.turnId === fields.turnId) latest = { ...latest, leaseExpiresAt: fields.leaseExpiresAt };
    else if (type === 'turn.ended' && latest?.turnId === fields.turnId) latest = { ...latest, ended: true };
  }
  return latest;
};

/**
 * Called by appendToSegment after every append it made at `before`, now at `after`. Without an
 * entry nothing is tracked (appends that never name a turn cost one lookup), except that a turn
 * just begun is known at once: beginning a turn and appending in it reads nothing more.
 */
export const noteAppended = (ledger: Ledger, sessionId: string, before: bigint, after: bigint, events: readonly Written[], written: boolean): void => {
  const map = known.get(ledger);
  const entry = map?.get(sessionId);
  if (!written || (entry && entry.revision !== before)) {
    map?.delete(sessionId);
    return;
  }
  if (!entry && !events.some((event) => event.type === 'turn.started')) return;
  knownOf(ledger).set(sessionId, { revision: after, turn: turnAfter(entry?.turn ?? null, events) });
};
