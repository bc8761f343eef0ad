import type { EventStore } from '../port.js';
import type { RecordedEvent } from '../envelope.js';
import { isLedgerError, wrongExpectedVersion } from '../errors.js';
import type { ChainHead, LedgerAppendResult, NewEvent } from '../ledger.js';
import type { Decider, Decision } from './decider.js';
import { conflictBackoff, type ConflictRetryPolicy } from './retryPolicy.js';
import { stateCache, type StreamView } from './stateCache.js';

export type { StreamView } from './stateCache.js';

export interface HandleOptions {
  /**
   * The revision the caller last saw (-1n: the stream must not exist). Given, a conflict is the
   * caller's to resolve, with one exception: a command that the current state shows as already
   * applied (a retry after a lost answer) succeeds as a no-op, unless the revision is ahead of the
   * stream's (no retry could have seen it). Omitted, the handler decides on
   * the current state and, when another writer gets in between, reads and decides again.
   */
  expectedRevision?: bigint;
}

export interface Handled<State, Reply> {
  reply: Reply;
  state: State;
  /** The stream's revision after the command (-1n: still no stream). */
  revision: bigint;
  /** Commit position of the last event written, or of the newest event read for a no-op. */
  position: bigint | null;
  /** false: the command was already applied; nothing was stored. */
  written: boolean;
}

interface HandlerPorts {
  store: EventStore;
  appendAt: (stream: string, events: NewEvent[], expected: bigint | 'no_stream', head?: ChainHead | null) => Promise<LedgerAppendResult>;
  retry: ConflictRetryPolicy;
}

/** What the handler records of its own append, for `evolve` (no read needed to know what was written). */
const recordedOf = (stream: string, events: NewEvent[], result: LedgerAppendResult): RecordedEvent[] => {
  const first = result.nextExpectedRevision - BigInt(events.length) + 1n;
  return events.map((event, index) => ({
    streamName: stream,
    id: event.id,
    type: event.type,
    revision: first + BigInt(index),
    position: result.position,
    data: event.data,
    metadata: event.metadata ?? {},
    created: '',
  }));
};

/**
 * The one command handler: load the stream's state (through the one cache), decide, append
 * conditionally on the revision decided on, evolve. An expected-version conflict is retried under
 * the one retry policy when the caller named no revision; an append the store answers as a replay
 * (its event ids are stored already) is decided again on the stored state, which shows whether it
 * was the same write (a no-op) or another one (the decider's conflict). `handle` below runs one
 * stream's commands in turn.
 */
export const commandHandler = ({ store, appendAt, retry }: HandlerPorts) => {
  const cache = stateCache(store);
  /** Per stream, the settling of the last command this handler was given for it. */
  const queued = new Map<string, Promise<void>>();

  const handleNow = async <Command, State, Reply>(
    decider: Decider<Command, State, Reply>,
    stream: string,
    command: Command,
    options: HandleOptions = {},
  ): Promise<Handled<State, Reply>> => {
    const expected = options.expectedRevision;
    for (let attempt = 1; ; attempt += 1) {
      const known = cache.get(decider, stream);
      // A caller at the cached revision needs no read: if the stream moved, the append is refused.
      // Nor does an entry the store's hint says is current (no await either: the 32-writer bench rows),
      // on a first attempt of a caller who named no revision: after a conflict, or for a caller at
      // another revision than the entry's (most often a newer one: the entry is stale; outside test,
      // session 19), the store is asked for its full answer.
      const atExpected = known !== undefined && expected !== undefined && known.revision === expected;
      const hinted = expected === undefined && attempt === 1 && known !== undefined && cache.current(stream, known, true);
      const unread = (atExpected || hinted) && known !== undefined;
      let view = unread ? known : await cache.load(decider, stream);
      let decided = unread ? decidedOrThrown(decider, command, view.state) : decider.decide(command, view.state);
      if (unread && !('events' in decided && decided.events.length > 0)) {
        // A refusal or a no-op writes nothing, so no commit checks the entry it was decided on, which
        // the stream may have left: it is decided again on the store's full answer (or a read), so the
        // answer never depends on what this process has cached (outside tests, session 19: a caller at
        // an older revision that a stale entry held was told turn_not_found, not the conflict).
        view = await cache.load(decider, stream);
        decided = decider.decide(command, view.state);
      }
      const { events, reply } = decided as Decision<Reply>;
      if (events.length === 0) {
        // A retry's revision is behind the stream; one ahead of it was never seen, so it is no retry
        // but a caller's mistake: refused as any write at it is (outside test, session 31, F9).
        if (expected !== undefined && expected > view.revision) throw wrongExpectedVersion(stream, expected.toString(), view.revision < 0n ? 'no_stream' : view.revision.toString());
        return { reply, state: view.state, revision: view.revision, position: view.position, written: false };
      }
      if (expected !== undefined && view.revision !== expected) {
        throw wrongExpectedVersion(stream, expected < 0n ? 'no_stream' : expected.toString(), view.revision < 0n ? 'no_stream' : view.revision.toString());
      }
      let result: LedgerAppendResult;
      try {
        result = await appendAt(stream, events, view.revision < 0n ? 'no_stream' : view.revision, view.head);
      } catch (error) {
        // A refusal leaves the cached entry true at its revision: the next attempt reads only the
        // events after it. Dropping it made every retry fold the whole stream again, so 16 writers
        // on a session of 2,000 messages spent most attempts reading (outside test, session 16).
        if (!isLedgerError(error, 'wrong_expected_version')) cache.forget(stream);
        if (!isLedgerError(error, 'wrong_expected_version') || attempt >= retry.attempts) throw error;
        // With an expected revision, one more pass tells a retry (no-op) from a stale revision (refused above).
        if (expected === undefined) await conflictBackoff(retry, attempt);
        continue;
      }
      if (result.written === false) {
        cache.forget(stream);
        if (attempt >= retry.attempts) throw wrongExpectedVersion(stream, view.revision.toString(), result.nextExpectedRevision.toString());
        continue;
      }
      let state = view.state;
      for (const event of recordedOf(stream, events, result)) state = decider.evolve(state, event);
      cache.advance(decider, stream, view, { state, revision: result.nextExpectedRevision, position: result.position, head: result.head });
      return { reply, state, revision: result.nextExpectedRevision, position: result.position, written: true };
    }
  };

  /**
   * Commands for one stream given to this handler run one after another, each on the state the last
   * left (one writer per stream in a process; other streams' commands run at once and share the
   * store's group commit). Racing in-process writers on one stream therefore never conflict: before,
   * the writer whose append had just landed decided again on its cached state at once while the
   * others backed off and read, and 16 HTTP clients on one session starved until their attempts ran
   * out (409 wrong_expected_version; outside test, session 16). Writers in other processes still
   * conflict, and are retried under the one policy.
   */
  const handle = <Command, State, Reply>(decider: Decider<Command, State, Reply>, stream: string, command: Command, options: HandleOptions = {}): Promise<Handled<State, Reply>> => {
    const before = queued.get(stream);
    const run = before === undefined ? handleNow(decider, stream, command, options) : before.then(() => handleNow(decider, stream, command, options));
    const settled = run.then(ignore, ignore);
    queued.set(stream, settled);
    void settled.then(() => {
      if (queued.get(stream) === settled) queued.delete(stream);
    });
    return run;
  };

  return { handle, load: cache.load };
};

const ignore = (): void => undefined;

/** A decision, or what `decide` threw (kept to be decided again on a read). */
const decidedOrThrown = <Command, State, Reply>(decider: Decider<Command, State, Reply>, command: Command, state: State): Decision<Reply> | { thrown: unknown } => {
  try {
    return decider.decide(command, state);
  } catch (thrown) {
    return { thrown };
  }
};
