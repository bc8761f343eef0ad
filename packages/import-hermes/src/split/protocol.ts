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
}

/**
 * Messages from the import (this thread: reads, plans, builds, checks and seals the events, deciding
 * each append's expected revision from the store as the run found it) to its append worker
 * (appendWorker.ts: writes them through its own store). One session at a time, in plan order:
 * `begin`, its sealed batches, `end`.
 */
export type ToAppender =
  /** `existing`: how many of the plan's events the stream already held (the report's count). */
  | { t: 'begin'; stream: string; existing: number }
  /**
   * One conditional append at `expected` (a revision in decimal, or `no_stream`) of sealed events:
   * `text`, the JSON text of their ids, types and metadata (chain hashes included), `data`, each
   * one's data as the JSON text the chain hash covered (the store writes it as it is); and the
   * report's counts once it is written.
   */
  | { t: 'batch'; expected: string; text: string; data: string[]; counts: WroteCounts }
  /** `refused`: this thread refused the session part way: write no more of it. */
  | { t: 'end'; refused?: string }
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
  replaced: number;
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
