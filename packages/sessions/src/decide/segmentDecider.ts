import { canonicalJson, deterministicId, ledgerError, type Decider, type Decision, type NewEvent } from '@session-ledger/core';
import { encodeSessionEvent, type SessionContinued, type SessionEvent } from '@session-ledger/events';
import { evolveSegment, holdsSegment, initialSegmentWriteState, type SegmentWriteState } from '@session-ledger/projections';
import { sessionActive, sessionEnded, sessionNotFound, sessionSealed, turnNotFound } from '../errors.js';
import type { CommandOf, SegmentCommand } from './commands.js';
import { assertOpen, childTakenError, openTurn, ownTurn, takenChild } from './rules.js';

/** What a decided segment write tells its caller besides the revision. */
export interface SegmentReply {
  turnId?: string;
  leaseExpiresAt?: string;
  messageIds?: string[];
  /** For `continue`: the compression the segment holds (the stored one on a retry). */
  continued?: SessionContinued;
  /**
   * For `append_messages` and `begin_turn` in a compression child: decide again with what the
   * ancestors hold (`lineage`, `lineageTurnIds`).
   */
  lineageNeeded?: true;
}

type Decided = Decision<SegmentReply>;

const encoded = (id: string, event: SessionEvent): NewEvent => ({ id, ...encodeSessionEvent(event) });
const write = (events: NewEvent[], reply: SegmentReply = {}): Decided => ({ events, reply });
const noop = (reply: SegmentReply = {}): Decided => ({ events: [], reply });
const duplicate = (what: string, why: string) => ledgerError('duplicate', `${what} ${why}`, { what });

/** A start carries a clock reading; a retry is the same start when everything else is the same. */
const sameStart = (a: object, b: object): boolean => {
  const { startedAt: _a, ...restA } = a as { startedAt?: string };
  const { startedAt: _b, ...restB } = b as { startedAt?: string };
  return canonicalJson(restA) === canonicalJson(restB);
};

const start = (command: CommandOf<'start'>, state: SegmentWriteState): Decided => {
  if (state.started) {
    if (sameStart(state.started, command.data)) return noop();
    throw duplicate(`session ${command.sessionId}`, 'already exists with other settings (parent, link, model, source, title or extra)');
  }
  return write([encoded(command.eventId, { type: 'session.started', data: command.data })]);
};

const linkChild = (command: CommandOf<'link_child'>, state: SegmentWriteState): Decided => {
  assertOpen(command.sessionId, state);
  const known = state.children.get(command.childId);
  if (known === command.link) return noop();
  if (known !== undefined) throw duplicate(`session ${command.childId}`, `is already linked from ${command.sessionId} as ${known}`);
  return write([encoded(command.eventId, { type: 'session.child_linked', data: { childId: command.childId, link: command.link, linkedAt: command.at } })]);
};

const beginTurn = (command: CommandOf<'begin_turn'>, state: SegmentWriteState): Decided => {
  const { sessionId, turnId, owner, leaseExpiresAt, now } = command;
  assertOpen(sessionId, state);
  const latest = state.turn;
  if (latest?.turnId === turnId) {
    if (latest.ended) throw turnNotFound(sessionId, turnId, 'has ended');
    if (latest.owner !== owner) throw duplicate(`turn ${turnId}`, `is held by ${latest.owner}`);
    return noop({ turnId, leaseExpiresAt: latest.leaseExpiresAt });
  }
  if (state.turnIds.has(turnId)) throw turnNotFound(sessionId, turnId, 'was used by an earlier turn');
  if (holdsSegment(latest, now)) throw sessionActive(sessionId, latest.turnId, sessionId);
  // A turn id is used once per conversation: a compression child asks for its ancestors' turns.
  if (state.started?.link === 'compression') {
    if (command.lineageTurnIds === undefined) return noop({ lineageNeeded: true });
    if (command.lineageTurnIds.has(turnId)) throw turnNotFound(sessionId, turnId, 'was used by an earlier turn of the conversation, before its compression');
  }
  const startedAt = now.toISOString();
  return write([encoded(command.eventId, { type: 'turn.started', data: { turnId, owner, leaseExpiresAt, startedAt } })], { turnId, leaseExpiresAt });
};

const renewLease = (command: CommandOf<'renew_lease'>, state: SegmentWriteState): Decided => {
  const { sessionId, turnId, leaseExpiresAt, now } = command;
  assertOpen(sessionId, state);
  openTurn(sessionId, turnId, state.turn, now);
  const data = { turnId, leaseExpiresAt, renewedAt: now.toISOString() };
  return write([encoded(command.eventId, { type: 'turn.lease_renewed', data })], { turnId, leaseExpiresAt });
};

const endTurn = (command: CommandOf<'end_turn'>, state: SegmentWriteState): Decided => {
  const { sessionId, turnId, now } = command;
  assertOpen(sessionId, state);
  if (ownTurn(sessionId, turnId, state.turn, now).ended) {
    // A retry ends it the same way; another outcome would be acknowledged and never stored.
    if (command.outcome === undefined || state.turnOutcome === null || state.turnOutcome === command.outcome) return noop({ turnId });
    throw duplicate(`turn ${turnId}`, `has ended already as ${state.turnOutcome}, not ${command.outcome}`);
  }
  const data = { turnId, outcome: command.outcome ?? 'completed', endedAt: now.toISOString() };
  return write([encoded(command.eventId, { type: 'turn.ended', data })], { turnId });
};

/**
 * Messages: every named turn must hold the segment (the fence); a message id already stored with
 * the same content is a retry (all of the batch, or it is refused), with other content a conflict.
 * A retry is answered as one before the segment's rules: a write acknowledged (or whose answer was
 * lost) before the segment was compressed, ended or its turn closed is still a no-op, never
 * session_sealed sending the writer to the tip to store it again (outside test, session 14).
 * "Stored" reaches up the lineage: in a compression child, a caller-given id the segment does not
 * hold may be one its ancestors do (a retry sent to the tip after the compression); the decider
 * then asks for them (`lineageNeeded`) and decides again with `lineage`, which the displayed
 * conversation would otherwise show once and drop the second from (a duplicate id is skipped).
 */
const appendMessages = (command: CommandOf<'append_messages'>, state: SegmentWriteState): Decided => {
  const { sessionId, messages, now, lineage } = command;
  const messageIds = messages.map((message) => message.messageId);
  let stored = 0;
  let conflict: { messageId: string; sessionId: string } | null = null;
  let unread = false;
  for (const message of messages) {
    const known = state.messages.get(message.messageId);
    const held = known === undefined ? lineage?.get(message.messageId) : undefined;
    if (known === undefined && held === undefined) {
      if (message.digest !== undefined) unread = true;
      continue;
    }
    if (held ? !held.same : known !== message.eventId) conflict ??= { messageId: message.messageId, sessionId: held?.sessionId ?? sessionId };
    stored += 1;
  }
  if (unread && lineage === undefined && state.started?.link === 'compression') return noop({ messageIds, lineageNeeded: true });
  if (state.started && conflict === null && stored > 0 && stored === messages.length) return noop({ messageIds });
  assertOpen(sessionId, state);
  for (const turnId of command.turnIds) openTurn(sessionId, turnId, state.turn, now ?? new Date(0));
  if (conflict !== null) throw duplicate(`message ${conflict.messageId}`, `is already stored in session ${conflict.sessionId} with other content`);
  if (stored === messages.length) return noop({ messageIds });
  if (stored > 0) throw duplicate(`message batch`, `is partly stored in session ${sessionId} already: retry it whole or with new ids`);
  return write(
    messages.map((message) => encoded(message.eventId, { type: 'message.appended', data: message.data })),
    { messageIds },
  );
};

/**
 * Compression seals the segment with `session.continued`. The child id must be free (or already
 * this segment's child): a taken one is refused before anything is written. A segment already
 * continued takes no other compression (session_sealed), except when the child its continuation
 * names can never be started, its id being taken by another stream (a race the writer's check
 * cannot close, or a ledger written before the check): then a compression into a fresh child writes
 * a new `session.continued`, which supersedes the stored one (the latest continuation is the one in
 * force). The same compression again is a no-op, unless its child is the taken one.
 */
const continueSegment = (command: CommandOf<'continue'>, state: SegmentWriteState): Decided => {
  const { sessionId, continued, child } = command;
  if (!state.started) throw sessionNotFound(sessionId);
  const stored = state.continued;
  if (stored) {
    const pending = stored.childId === sessionId ? 'taken' : command.pending?.childId === stored.childId ? command.pending.stream : null;
    // Not stuck: the usual sealed segment. Stuck and asked again for the taken child: refused below, as a taken child.
    if (!takenChild(pending)) {
      const same = command.childGiven ? stored.childId === continued.childId : stored.summary === continued.summary;
      // The same child with another summary: a retry whose summary would be acknowledged and never stored.
      if (same && stored.summary !== continued.summary) throw duplicate(`session ${stored.childId}`, `is already the compression of ${sessionId}, with another summary`);
      if (same) return noop({ continued: stored });
      throw sessionSealed(sessionId, stored.childId);
    }
  } else if (state.ended) throw sessionEnded(sessionId);
  // The segment's own id is taken whatever the writer read.
  const stream = continued.childId === sessionId ? 'taken' : child;
  if (takenChild(stream)) throw childTakenError(continued.childId, stream);
  return write([encoded(command.eventId, { type: 'session.continued', data: continued })], { continued });
};

const end = (command: CommandOf<'end'>, state: SegmentWriteState): Decided => {
  if (state.started && state.ended) {
    // A retry ends it for the same reason, or gives none; another reason would be acknowledged and never stored.
    if (command.data.reason === undefined || command.data.reason === state.endReason) return noop();
    throw duplicate(`session ${command.sessionId}`, `has ended already${state.endReason === null ? ' with no reason' : ` for the reason ${JSON.stringify(state.endReason)}`}`);
  }
  assertOpen(command.sessionId, state);
  // A live turn holds the session: only it may end it (as deletion waits for it), so no harness stops recording mid-turn.
  if (command.turnId !== undefined) openTurn(command.sessionId, command.turnId, state.turn, command.now);
  else if (state.turn && !state.turn.ended && holdsSegment(state.turn, command.now)) throw sessionActive(command.sessionId, state.turn.turnId, command.sessionId);
  return write([encoded(nthId(command.eventId, state.ends), { type: 'session.ended', data: command.data })]);
};

/** The id of a segment's n-th end or reopen (n from 0): the first keeps the writer's id, so ids stored before reopens existed are unchanged. */
const nthId = (first: string, n: number): string => (n === 0 ? first : deterministicId(first, String(n)));

/**
 * Reopening an ended segment lets it take writes again (a harness resumed it). One that is open is a
 * no-op (a retry); a sealed one is session_sealed naming its child (reopen the tip). Each end after a
 * reopen is an event of its own, and so is each reopen: their ids count the ends before them.
 */
const reopen = (command: CommandOf<'reopen'>, state: SegmentWriteState): Decided => {
  if (!state.started) throw sessionNotFound(command.sessionId);
  if (state.continued) throw sessionSealed(command.sessionId, state.continued.childId);
  if (!state.ended) return noop();
  return write([encoded(nthId(command.eventId, state.ends - 1), { type: 'session.reopened', data: { reopenedAt: command.reopenedAt } })]);
};

const append = (command: CommandOf<'append'>, state: SegmentWriteState): Decided => {
  assertOpen(command.sessionId, state);
  return write(command.events.map(({ id, ...event }) => encoded(id, event as SessionEvent)));
};

const decideSegment = (command: SegmentCommand, state: SegmentWriteState): Decided => {
  switch (command.kind) {
    case 'start': return start(command, state);
    case 'link_child': return linkChild(command, state);
    case 'begin_turn': return beginTurn(command, state);
    case 'renew_lease': return renewLease(command, state);
    case 'end_turn': return endTurn(command, state);
    case 'append_messages': return appendMessages(command, state);
    case 'continue': return continueSegment(command, state);
    case 'end': return end(command, state);
    case 'reopen': return reopen(command, state);
    case 'append': return append(command, state);
  }
};

/** The segment decider: one stream `session-<id>`, every write rule of sessions, turns, leases, seals and ends. */
export const segmentDecider: Decider<SegmentCommand, SegmentWriteState, SegmentReply> = {
  name: 'session-segment',
  initialState: initialSegmentWriteState,
  evolve: evolveSegment,
  decide: decideSegment,
};
