import type { ErrorDetails } from '@session-ledger/core';

/**
 * How a worker thread opens a store of its own on the caller's ledger: `(await import(module))[name](...args)`,
 * which returns an EventStore (or a promise of one). A store object cannot cross threads, so the caller
 * names its opener instead (the CLI passes its own `openStore` and the store URL, so the worker's
 * appends write the inline read models in their own transactions, exactly as the caller's would).
 * `args` must survive a structured clone.
 */
export interface StoreOpener {
  /** A module specifier the worker can import: an absolute file: URL, or a package name. */
  module: string;
  /** The export to call. */
  name: string;
  args: unknown[];
}

export interface AppendWorkerData {
  opener: StoreOpener;
  batchSize: number;
}

/**
 * Messages from the import (this thread: reads, plans, builds and checks the events) to its append
 * worker (appendWorker.ts: brings each stream up to the plan through a ledger on its own store). One
 * session at a time, in plan order: `begin`, its events as JSON text batches, `end`.
 */
export type ToAppender =
  | { t: 'begin'; stream: string }
  /** JSON text of SyncEvent[], the session's next planned events in order (those already held included). */
  | { t: 'batch'; text: string }
  /** `count`: how many events the plan holds. `refused`: this thread refused the session part way: write no more of it. */
  | { t: 'end'; count: number; refused?: string }
  /** Close the store and end. */
  | { t: 'close' };

/** The report's counts of one written append (countWritten) and the Hermes rows it carried. */
export interface WroteCounts {
  events: number;
  sessions: number;
  segments: number;
  messages: number;
  compacted: number;
  rewound: number;
  rows: number;
}

/** A typed ledger error crossing the thread boundary, or (no `type`) any other failure. */
export interface WireError {
  type?: string;
  message: string;
  details?: ErrorDetails[keyof ErrorDetails];
  stack?: string;
}

export type SessionOutcome =
  | { kind: 'synced'; existing: number; written: number }
  | { kind: 'conflict'; existing: number; written: number; reason: string }
  /** The store refused an append as invalid input (the one-thread import reports the session as not mappable). */
  | { kind: 'refused'; written: number; reason: string };

export type FromAppender =
  /** A batch message was taken (its appends done): room for another. */
  | { t: 'took' }
  | ({ t: 'wrote' } & WroteCounts)
  | { t: 'outcome'; outcome: SessionOutcome }
  /** The worker failed; nothing more follows but `closed`. */
  | { t: 'failed'; error: WireError }
  | { t: 'closed' };

/** At most this many batches wait between the threads: memory stays bounded by the batch size. */
export const MAX_IN_FLIGHT = 2;
