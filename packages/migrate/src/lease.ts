import { hostname } from 'node:os';
import { createLedger, isLedgerError, newId, readStreamIfAny, type EventStore, type JsonObject, type RecordedEvent } from '@session-ledger/core';
import { migrationLeaseLost, migrationRunning, type LeaseHolder } from './errors.js';
import { LEASE_STREAM, LEASE_TYPE } from './names.js';

/** How long a lease holds without a renewal: a run killed with kill -9 blocks the target this long at most. */
export const DEFAULT_LEASE_TTL_MS = 20_000;

export interface LeaseOptions {
  /** Lease duration in ms (default 20 s); the run renews it every third of it. */
  ttlMs?: number;
  /** The clock (ms since the epoch); default Date.now. For tests. */
  now?: () => number;
  /** How the run names itself to a run it refuses; default `pid N on HOST`. */
  holder?: string;
  /** Renew on a timer (default true); tests that drive renewals themselves turn it off. */
  heartbeat?: boolean;
}

export interface Lease {
  readonly runId: string;
  /** Renews now (conditional append); throws migration_running (lost) when another run took it over. */
  renew(): Promise<void>;
  /** Before a write: throws when a heartbeat found the lease lost; renews inline when the timer fell behind. */
  ensure(): Promise<void>;
  /** Stops the heartbeat and soft-deletes the lease stream (conditionally: a lease taken over is left to its new holder). */
  release(): Promise<void>;
}

const asHolder = (event: RecordedEvent): LeaseHolder | null => {
  const data = event.data as Partial<Record<keyof LeaseHolder, unknown>> | null;
  if (event.type !== LEASE_TYPE || !data || typeof data !== 'object') return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  if (Number.isNaN(Date.parse(text(data.expiresAt)))) return null;
  return { runId: text(data.runId), holder: text(data.holder), source: text(data.source), acquiredAt: text(data.acquiredAt), expiresAt: text(data.expiresAt) };
};

const lastLease = async (to: EventStore): Promise<RecordedEvent | null> =>
  (await readStreamIfAny(to, LEASE_STREAM, { direction: 'backwards', maxCount: 1 }))?.[0] ?? null;

/**
 * Takes the target's migration lease: one conditional append (expected revision) to the lease
 * stream. Free (no live event: never taken, or released) it is appended as `no_stream`; held by a
 * run whose lease expired it is taken over at that event's revision; held and unexpired it is
 * refused with migration_running before anything is written. Two runs racing for it: the store
 * accepts one append, the other sees the winner's lease and is refused.
 */
export const acquireLease = async (to: EventStore, source: string, options: LeaseOptions = {}): Promise<Lease> => {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const now = options.now ?? Date.now;
  const runId = newId();
  const mine = { runId, holder: options.holder ?? `pid ${process.pid} on ${hostname()}`, source, acquiredAt: new Date(now()).toISOString() };
  /** One lease event, appended through the ledger, which chains it (`audit verify` holds while a lease is live, after a kill -9 too). */
  const ledger = createLedger(to);
  const record = (extra: JsonObject = {}) => {
    const expires = now() + ttlMs;
    return { event: { id: newId(), type: LEASE_TYPE, data: { ...mine, expiresAt: new Date(expires).toISOString(), ttlMs, ...extra } }, expires };
  };

  let revision: bigint | null = null;
  let expiresAt = 0;
  for (let attempt = 0; revision === null; attempt += 1) {
    const last = await lastLease(to);
    const holder = last ? asHolder(last) : null;
    if (holder && now() < Date.parse(holder.expiresAt)) throw migrationRunning(holder, now());
    if (attempt >= 3) throw migrationRunning(holder ?? { runId: '?', holder: 'unknown', source: '?', acquiredAt: '?', expiresAt: new Date(now() + ttlMs).toISOString() }, now());
    const { event, expires } = record(holder ? { tookOver: holder.runId } : {});
    try {
      const result = await ledger.append(LEASE_STREAM, [event], { expectedRevision: last ? last.revision : 'no_stream' });
      revision = result.nextExpectedRevision;
      expiresAt = expires;
    } catch (error) {
      // Another run appended first (took it, renewed it or took it over): read again, which refuses.
      if (!isLedgerError(error, 'wrong_expected_version')) throw error;
    }
  }

  let lost: unknown = null;
  let pending: Promise<void> = Promise.resolve();
  const renewOnce = async () => {
    if (lost) throw lost;
    const { event, expires } = record();
    try {
      const result = await ledger.append(LEASE_STREAM, [event], { expectedRevision: revision! });
      revision = result.nextExpectedRevision;
      expiresAt = expires;
    } catch (error) {
      if (!isLedgerError(error, 'wrong_expected_version')) throw error;
      const last = await lastLease(to).catch(() => null);
      lost = migrationLeaseLost(last ? asHolder(last) : null, now());
      throw lost;
    }
  };
  const renew = () => (pending = pending.catch(() => undefined).then(renewOnce));
  const timer = options.heartbeat === false ? null : setInterval(() => void renew().catch(() => undefined), Math.max(1, Math.floor(ttlMs / 3)));
  timer?.unref();

  return {
    runId,
    renew,
    async ensure() {
      await pending.catch(() => undefined);
      if (lost) throw lost;
      // The timer fell behind (a long page, a busy event loop): renew before writing on.
      if (expiresAt - now() < ttlMs / 2) await renew();
    },
    async release() {
      if (timer) clearInterval(timer);
      await pending.catch(() => undefined);
      if (lost || revision === null) return;
      // A lease left behind expires by itself; a failed release (store gone) only delays the next run by the TTL.
      await to.deleteStream(LEASE_STREAM, { expectedRevision: revision }).catch(() => undefined);
    },
  };
};
