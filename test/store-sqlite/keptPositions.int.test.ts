import { describe, expect, it } from 'vitest';
import { isLedgerError, newId, verifyLog, type EventData, type EventStore } from '@session-ledger/core';
import type { CommitHook } from '@session-ledger/store-sqlite';
import { storesOnTempFiles } from './tempLedger.js';

const events = (count: number): EventData[] => Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'written', data: { n } }));
const refusal = (promise: Promise<unknown>) => promise.then(() => 'appended', (error: unknown) => (isLedgerError(error) ? error.type : String(error)));

/** A read model kept inline that refuses the events of stream `bad` (after they and their leaves are inserted). */
const refusingHook: CommitHook = {
  init: () => undefined,
  appended: (_db, recorded) => {
    if (recorded[0]?.streamName === 'bad') throw new Error('refused by the read model');
  },
  erased: () => undefined,
};

/**
 * The next position and the log's size are kept between this connection's appends (positions.ts):
 * each case below, with what it drops kept instead, writes an event at a position or a leaf at an
 * index that is taken (the append refused) or skipped (a log with a gap, which verify reports).
 */
describe('SQLite store: the next position and the log size kept between appends', () => {
  const opened = storesOnTempFiles('kept-positions');
  const open = (file?: string, hook?: CommitHook) => opened(file, hook ? { onCommit: hook } : {});

  const positions = async (store: EventStore) => (await store.readAll()).map((event) => event.position);
  const clean = async (store: EventStore, size: number) => {
    const report = await verifyLog(store);
    // The log's own breaks: these events come straight to the store, without the ledger's chain hashes.
    expect(report.breaks.filter((item) => item.kind !== 'hash' && item.kind !== 'prev')).toEqual([]);
    expect(report.size).toBe(size);
  };

  it('are read again after another connection appended (to another stream)', async () => {
    const { store: first, file } = open();
    const { store: second } = open(file);
    await first.appendToStream('s', events(1), { expectedRevision: 'no_stream' });
    await second.appendToStream('t', events(2), { expectedRevision: 'no_stream' });
    expect((await first.appendToStream('s', events(1), { expectedRevision: 0n })).position).toBe(4n);
    expect((await second.appendToStream('t', events(1), { expectedRevision: 1n })).position).toBe(5n);
    expect((await first.appendToStream('s', events(1), { expectedRevision: 1n })).position).toBe(6n);
    expect(await positions(first)).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
    await clean(first, 6);
  });

  it('are dropped when a group rolls back, so the appends run again take the positions and leaves it freed', async () => {
    const { store } = open();
    // The second append is refused inside the group's transaction: the group rolls back and runs again
    // with a savepoint per append; the first must not go on from the position it took before the rollback.
    const outcomes = await Promise.all([
      refusal(store.appendToStream('s', events(2), { expectedRevision: 'no_stream' })),
      refusal(store.appendToStream('t', events(1), { expectedRevision: 5n })),
    ]);
    expect(outcomes).toEqual(['appended', 'wrong_expected_version']);
    expect((await store.appendToStream('s', events(1), { expectedRevision: 1n })).position).toBe(3n);
    expect(await positions(store)).toEqual([1n, 2n, 3n]);
    await clean(store, 3);
  });

  it('are dropped when a lone append is refused after inserting its events and leaves', async () => {
    const { store } = open(undefined, refusingHook);
    await store.appendToStream('s', events(1), { expectedRevision: 'no_stream' });
    expect(await refusal(store.appendToStream('bad', events(3), { expectedRevision: 'no_stream' }))).toMatch(/refused by the read model/);
    expect((await store.appendToStream('s', events(1), { expectedRevision: 0n })).position).toBe(2n);
    // A group where an append is refused after one that wrote: rolled back, run again under savepoints.
    const outcomes = await Promise.all([
      refusal(store.appendToStream('s', events(1), { expectedRevision: 1n })),
      refusal(store.appendToStream('bad', events(1), { expectedRevision: 'no_stream' })),
      refusal(store.appendToStream('t', events(1), { expectedRevision: 'no_stream' })),
    ]);
    expect(outcomes[0]).toBe('appended');
    expect(outcomes[1]).toMatch(/refused by the read model/);
    expect(outcomes[2]).toBe('appended');
    expect((await store.appendToStream('s', events(1), { expectedRevision: 2n })).position).toBe(5n);
    expect(await positions(store)).toEqual([1n, 2n, 3n, 4n, 5n]);
    await clean(store, 5);
  });

  it('are dropped by a delete or tombstone, whose deletion leaf takes the log index the next append would have', async () => {
    const { store } = open();
    await store.appendToStream('s', events(2), { expectedRevision: 'no_stream' });
    await store.deleteStream('s', { expectedRevision: 1n });
    expect((await store.appendToStream('t', events(1), { expectedRevision: 'no_stream' })).position).toBe(3n);
    await clean(store, 4); // two event leaves, the deletion's, t's
    await store.tombstoneStream('t', { expectedRevision: 0n });
    expect((await store.appendToStream('s', events(1), { expectedRevision: 'no_stream' })).position).toBe(4n);
    expect(await positions(store)).toEqual([4n]);
    await clean(store, 6);
  });
});
