import type { EventData, ExpectedRevision } from './envelope.js';
import { formatExpected } from './envelope.js';
import { invalidInput, streamDeleted, wrongExpectedVersion } from './errors.js';
import { isUuid } from './ids.js';
import { illFormedMessage, illFormedPath } from './wellFormed.js';

/** What an adapter knows about a stream when it decides an append. */
export interface StreamState {
  /** Last revision ever written, including soft-deleted events; -1n when none. */
  lastRevision: bigint;
  /** First revision still readable (after a soft delete: the one after the last deleted). */
  firstLive: bigint;
  tombstoned: boolean;
}

export type AppendDecision =
  | { kind: 'write'; firstRevision: bigint }
  | { kind: 'idempotent'; lastRevision: bigint };

/** The current revision as EventStoreDB reports it: a soft-deleted or empty stream has none. */
export const actualOf = (state: StreamState | undefined): string =>
  !state || state.lastRevision < state.firstLive ? 'no_stream' : state.lastRevision.toString();

export const validateEvents = (events: EventData[]): void => {
  for (const event of events) {
    if (!isUuid(event.id)) throw invalidInput(`Event id is not a UUID: ${event.id}`, 'id');
    if (typeof event.type !== 'string' || event.type.length === 0) throw invalidInput('Event type is empty', 'type');
    // Every store keeps UTF-8: a lone surrogate would be stored as U+FFFD under a hash over the original.
    const illFormed = illFormedPath(event.type, 'type') ?? illFormedPath(event.data, 'data') ?? illFormedPath(event.metadata ?? {}, 'metadata');
    if (illFormed !== null) throw invalidInput(illFormedMessage(`the ${illFormed} of a ${JSON.stringify(event.type)} event (${event.id})`, illFormed), illFormed.split(/[.[ ]/)[0]!);
  }
};

/**
 * EventStoreDB's append rules, shared by every adapter that decides appends itself.
 * `idsAt(revision)` gives the id stored at a live revision, or undefined.
 * `revisionOfId(id)` gives the live revision holding an event id, or undefined.
 */
export const decideAppend = (
  stream: string,
  state: StreamState | undefined,
  /** The events to append: the rules look at their ids and count only. */
  events: ReadonlyArray<Pick<EventData, 'id'>>,
  expected: ExpectedRevision,
  idAt: (revision: bigint) => string | undefined,
  revisionOfId: (id: string) => bigint | undefined,
): AppendDecision => {
  if (state?.tombstoned) throw streamDeleted(stream);
  const exists = state !== undefined && state.lastRevision >= state.firstLive;
  const next = (state?.lastRevision ?? -1n) + 1n;
  const conflict = () => wrongExpectedVersion(stream, formatExpected(expected), actualOf(state));
  const replayFrom = (start: bigint): AppendDecision | null => {
    if (events.length === 0) return null;
    let matched = 0;
    for (let i = 0; i < events.length; i += 1) {
      if (idAt(start + BigInt(i)) === events[i]!.id) matched += 1;
      else break;
    }
    if (matched === events.length) return { kind: 'idempotent', lastRevision: start + BigInt(matched - 1) };
    if (matched > 0) throw conflict();
    return null;
  };
  if (expected === 'any') {
    const first = events[0] ? revisionOfId(events[0].id) : undefined;
    if (first !== undefined) {
      const replay = replayFrom(first);
      if (replay) return replay;
      throw conflict();
    }
    return { kind: 'write', firstRevision: next };
  }
  if (expected === 'no_stream') {
    if (!exists) return { kind: 'write', firstRevision: next };
    const replay = state && state.firstLive === 0n ? replayFrom(0n) : null;
    if (replay) return replay;
    throw conflict();
  }
  if (expected === 'stream_exists') {
    if (!exists) throw conflict();
    return { kind: 'write', firstRevision: next };
  }
  const current = exists ? state!.lastRevision : -1n;
  if (expected === current) return { kind: 'write', firstRevision: next };
  if (expected < current) {
    const replay = replayFrom(expected + 1n);
    if (replay) return replay;
  }
  throw conflict();
};

/** EventStoreDB's delete and tombstone rule: the expected revision must match the current one. */
export const checkDeleteExpected = (
  stream: string,
  state: StreamState | undefined,
  expected: ExpectedRevision,
): void => {
  if (state?.tombstoned) throw streamDeleted(stream);
  const exists = state !== undefined && state.lastRevision >= state.firstLive;
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && !exists) ||
    (expected === 'stream_exists' && exists) ||
    (typeof expected === 'bigint' && exists && state!.lastRevision === expected);
  if (!ok) throw wrongExpectedVersion(stream, formatExpected(expected), actualOf(state));
};
