import type { RecordedEvent } from '../envelope.js';
import type { NewEvent } from '../ledger.js';

/**
 * What a command decides: the events to append (none: the command is already applied, a no-op)
 * and the reply its caller gets, computed from the same state.
 */
export interface Decision<Reply> {
  events: NewEvent[];
  reply: Reply;
}

/**
 * A write rule set in Emmett's shape: `evolve` folds a stream's recorded events into the state a
 * decision needs; `decide` turns a command and that state into events, or throws a typed error.
 * Both are pure: ids, clock readings and anything random arrive inside the command, so a decider
 * is tested Given (events) / When (command) / Then (events or error) without a store.
 */
export interface Decider<Command, State, Reply> {
  /** Names the decider in the state cache; one decider per stream family. */
  readonly name: string;
  initialState: () => State;
  /** Must not mutate `state` in place when it is shared; the handler keeps only the result. */
  evolve: (state: State, event: RecordedEvent) => State;
  decide: (command: Command, state: State) => Decision<Reply>;
}
