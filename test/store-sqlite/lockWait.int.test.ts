import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isLedgerError, newId, type EventData } from '@session-ledger/core';
import { storesOnTempFiles } from './tempLedger.js';

const event = (label: string): EventData[] => [{ id: newId(), type: 'written', data: { label } }];

/** How many times the event loop turned (timers fired) until `promise` settled. */
const turnsUntil = async <T>(promise: Promise<T>): Promise<{ turns: number; outcome: PromiseSettledResult<T> }> => {
  let turns = 0;
  const ticker = setInterval(() => (turns += 1), 5);
  const [outcome] = await Promise.allSettled([promise]);
  clearInterval(ticker);
  return { turns, outcome: outcome! };
};

describe('SQLite store: waiting for the write lock another connection holds', () => {
  const open = storesOnTempFiles('lock-wait');

  /** A store, and a second connection to its file (another process, as far as SQLite can tell) that has just committed. */
  const contended = async (busyTimeoutMs?: number) => {
    const { store, file } = open(undefined, busyTimeoutMs === undefined ? {} : { busyTimeoutMs });
    await store.appendToStream('own', event('first'));
    const other = new Database(file);
    other.pragma('busy_timeout = 0');
    other.exec("BEGIN IMMEDIATE; INSERT INTO checkpoints (name, position) VALUES ('other-process', 1); COMMIT");
    // This store sees the other's commit with its next append: from then on the lock is contended.
    await store.appendToStream('own', event('saw the other'));
    return { store, other };
  };

  it('waits on the event loop, not inside SQLite: the process goes on while another holds the lock, and the append lands once it is released', async () => {
    const { store, other } = await contended();
    other.exec('BEGIN IMMEDIATE');
    // The holder releases it from this process's own event loop: a wait inside SQLite would never let it.
    const release = setTimeout(() => other.exec('COMMIT'), 100);
    const { turns, outcome } = await turnsUntil(store.appendToStream('own', event('after the wait')));
    clearTimeout(release);
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    expect(outcome.status).toBe('fulfilled');
    expect(turns).toBeGreaterThan(5);
    expect((await store.readStream('own')).map((stored) => (stored.data as { label: string }).label)).toEqual(['first', 'saw the other', 'after the wait']);
  });

  it('appends queued while the group waits join it, in call order, each acknowledged once', async () => {
    const { store, other } = await contended();
    other.exec('BEGIN IMMEDIATE');
    setTimeout(() => other.exec('COMMIT'), 50);
    const first = store.appendToStream('queued', event('0'));
    const later = new Promise<unknown[]>((resolve) => {
      setTimeout(() => void Promise.all([1, 2, 3].map((n) => store.appendToStream('queued', event(String(n))))).then(resolve), 10);
    });
    await Promise.all([first, later]);
    other.close();
    expect((await store.readStream('queued')).map((stored) => (stored.data as { label: string }).label)).toEqual(['0', '1', '2', '3']);
  });

  it('fails past the busy timeout as SQLite would (store_unavailable), storing nothing', async () => {
    const { store, other } = await contended(200);
    other.exec('BEGIN IMMEDIATE');
    const { outcome } = await turnsUntil(store.appendToStream('late', event('never')));
    other.exec('ROLLBACK');
    other.close();
    expect(outcome.status).toBe('rejected');
    expect(isLedgerError((outcome as PromiseRejectedResult).reason, 'store_unavailable')).toBe(true);
    const read = await store.readStream('late').catch((error: unknown) => error);
    expect(isLedgerError(read, 'stream_not_found')).toBe(true);
    // The lock free again, the store writes as before.
    await store.appendToStream('late', event('now'));
    expect(await store.readStream('late')).toHaveLength(1);
  });
});
