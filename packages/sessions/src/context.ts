import { invalidInput, type Ledger } from '@session-ledger/core';

/** What every write needs: the hash-chained ledger and the harness clock (injected; default: the system clock). */
export interface WriterContext {
  ledger: Ledger;
  now?: () => Date;
}

/**
 * Every write takes the writer's known revision of the segment it writes. Omitted, the write is
 * decided on the current state and decided again if another writer gets in between (what the
 * stateless CLI and HTTP surfaces do); given, it is conditional on that revision, and a write the
 * segment already holds (a retry with the same ids and content) is a no-op.
 */
export interface Conditional {
  expectedRevision?: bigint;
}

/** What every write returns: the segment written, its new revision, and whether anything was written. */
export interface WriteResult {
  sessionId: string;
  /** The revision to expect on the next write to `sessionId`. */
  revision: bigint;
  position: bigint;
  /** true: stored; false: the write was already applied (a retry) or changes nothing; nothing new was stored. */
  written?: boolean;
}

export const nowOf = (context: WriterContext): Date => (context.now ? context.now() : new Date());

export const MAX_TTL_MS = 366 * 24 * 3600 * 1000;

/** A lease expiry `ttlMs` after `now`; the TTL must be a positive whole number of milliseconds. */
export const leaseUntil = (now: Date, ttlMs: number): string => {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0 || ttlMs > MAX_TTL_MS) {
    throw invalidInput(`Lease TTL must be a whole number of milliseconds from 1 to ${MAX_TTL_MS} (a year): ${ttlMs}`, 'ttlMs');
  }
  return new Date(now.getTime() + ttlMs).toISOString();
};
