import type { EventStore } from '@session-ledger/core';

const WRITES = ['appendToStream', 'deleteStream', 'tombstoneStream', 'tombstoneStreams', 'storeCheckpoint'] as const;

/**
 * The target as a run writes it: every write first makes sure the run still holds its lease
 * (lease.ts `ensure`: no I/O while it has more than half its TTL left; renewed, conditionally, when
 * less). Checked once a page, a run paused past its TTL (SIGSTOP, a laptop asleep) wrote the rest of
 * its page beside the run that took over, and the target's $all order no longer matched the source
 * (outside test, session 24). A pause between the check and the write itself is not fenced: the
 * stores have no write conditional on another stream.
 */
export const fencedBy = (store: EventStore, ensure: () => Promise<void>): EventStore => {
  const fenced = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(store)) fenced[key] = typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(store) : value;
  for (const key of WRITES) {
    const write = fenced[key] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (write) {
      fenced[key] = async (...args: unknown[]) => {
        await ensure();
        return write(...args);
      };
    }
  }
  return fenced as unknown as EventStore;
};
