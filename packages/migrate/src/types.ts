import type { EventStore } from '@session-ledger/core';
import type { LeaseOptions } from './lease.js';

export type MigrationPhase = 'copy' | 'deletions' | 'verify';

export interface MigrationProgress {
  phase: MigrationPhase;
  /** Events read from the source in this run (copy), streams handled (deletions, verify). */
  done: number;
  /** Known for deletions and verify; unknown while copying. */
  total?: number;
}

export interface MigrationOptions {
  from: EventStore;
  to: EventStore;
  onProgress?: (progress: MigrationProgress) => void;
  /** Source events per read. Default 500. */
  pageSize?: number;
  /** Stop after copying this many pages (then resume with a later call); for tests and batching. */
  maxPages?: number;
  /** The target's migration lease (one run at a time): TTL (default 20 s), clock, holder name. */
  lease?: LeaseOptions;
}

/** One stream whose copy differs from its source, or could not be made. */
export interface StreamMismatch {
  stream: string;
  reason: string;
  source: string;
  target: string;
}

export interface MigrationSummary {
  /** True when every stream verified. */
  ok: boolean;
  /** The source position the copy resumed after, or null for a fresh copy. */
  resumedAfter: bigint | null;
  /** The source position the copy has reached (its checkpoint in the target). */
  position: bigint | null;
  /** Events read from the source in this run. */
  eventsRead: number;
  /** Events of this run that the target holds after it (written now, or found already there by id). */
  eventsCopied: number;
  /**
   * Events read from the source's $all whose stream is deleted (EventStoreDB keeps them there until
   * a scavenge): not copied, as the source's streams no longer show them. Always 0 from SQLite.
   */
  eventsOfDeletedStreams: number;
  /** False when maxPages stopped the copy before the end of $all (verification then did not run). */
  complete: boolean;
  streams: number;
  softDeleted: number;
  tombstoned: number;
  verified: number;
  mismatches: StreamMismatch[];
  /**
   * Streams whose hash chain is broken in the source already (e.g. an EventStoreDB stream continued
   * by the ledger after a soft delete): copied as they are, the same break in the target, so they
   * verify; listed so that the summary says so. Empty when every chain holds.
   */
  sourceChainBreaks: SourceChainBreak[];
}

/** Where a stream's hash chain breaks in the source (and so in its copy). */
export interface SourceChainBreak {
  stream: string;
  revision: bigint;
  reason: 'hash' | 'prev';
}
