import type { StreamState } from '@session-ledger/core';

/** Streams' states as this connection's appends decide them (see streamStates). */
export interface StreamStates {
  /**
   * A stream's state, inside the write transaction of the append that decides on it; the caller
   * drops them first (`forget`) when another connection committed since (versionWatch.ts).
   */
  get(name: string): StreamState | undefined;
  /** What an append just wrote, inside the same transaction (after its last statement). */
  wrote(name: string, state: StreamState): void;
  /** Drops everything: after a rollback of this connection's writes, before a delete, after another connection's commit. */
  forget(): void;
}

/** Streams kept, like the head tracker's: a server writing many sessions stays bounded. */
const CAPACITY = 4096;

/**
 * The stream states this connection's appends read or wrote, trusted while no other connection
 * commits: the store drops them when `PRAGMA data_version` moved (read once an append inside the
 * write transaction, versionWatch.ts). This connection's own writes keep them current: every append
 * records what it wrote (`wrote`), and every rollback and every delete drops them all (`forget`).
 * One pragma (~0.1 us) instead of the state's indexed SELECT (~1.3 us) for each append to a stream
 * this connection knows (benchmark row "sqlite single-event appends with the log commitment",
 * issue 13: >= 0.7 of plain).
 */
export const streamStates = (read: (name: string) => StreamState | undefined): StreamStates => {
  const states = new Map<string, StreamState>();

  const keep = (name: string, state: StreamState): void => {
    if (states.size >= CAPACITY) states.clear();
    states.set(name, state);
  };

  return {
    get(name) {
      const known = states.get(name);
      if (known !== undefined) return known;
      const state = read(name);
      if (state !== undefined) keep(name, state);
      return state;
    },
    wrote: keep,
    forget() {
      states.clear();
    },
  };
};
