import { ledgerError } from '@session-ledger/core';

declare module '@session-ledger/core' {
  /** The migrate module's error codes (see core's errors.ts). */
  interface ErrorDetails {
    /**
     * Another migrate run holds the target's lease (one run into a target at a time): this run wrote
     * nothing, or (`lost`) stopped after the other run took an expired lease of this one over.
     */
    migration_running: { runId: string; holder: string; expiresAt: string; retryAfterMs: number; lost: boolean };
  }
}

/** What the lease stream's last event says about the run that holds it. */
export interface LeaseHolder {
  runId: string;
  holder: string;
  source: string;
  acquiredAt: string;
  expiresAt: string;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A second run refused before it wrote anything: names the run that holds the target and how long its lease still runs. */
export const migrationRunning = (other: LeaseHolder, now: number) => {
  const retryAfterMs = Math.max(0, Date.parse(other.expiresAt) - now);
  return ledgerError(
    'migration_running',
    `Another migrate run into this target is under way (run ${other.runId}, ${other.holder}, from ${other.source}, since ${other.acquiredAt}); ` +
      `nothing was written. Run again once it has ended; if it was killed, its lease expires in ${seconds(retryAfterMs)} s (at ${other.expiresAt})`,
    { runId: other.runId, holder: other.holder, expiresAt: other.expiresAt, retryAfterMs, lost: false },
  );
};

/** This run's lease expired (its heartbeat was held up) and another run took the target over: this one stops. */
export const migrationLeaseLost = (other: LeaseHolder | null, now: number) =>
  ledgerError(
    'migration_running',
    `This migrate run lost its lease on the target to another run (${other ? `run ${other.runId}, ${other.holder}, from ${other.source}` : 'its lease stream changed'}); ` +
      'it stopped writing. Let that run finish, then run again to verify',
    {
      runId: other?.runId ?? '',
      holder: other?.holder ?? '',
      expiresAt: other?.expiresAt ?? '',
      retryAfterMs: other ? Math.max(0, Date.parse(other.expiresAt) - now) : 0,
      lost: true,
    },
  );
