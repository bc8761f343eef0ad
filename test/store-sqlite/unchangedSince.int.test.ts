import { describe, expect, it } from 'vitest';
import { newId, type EventData } from '@session-ledger/core';
import { storesOnTempFiles } from './tempLedger.js';

/** Lets the store's once-a-macrotask look at data_version (headTracker.ts, with hint) run again. */
const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

const events = (count: number): EventData[] => Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'written', data: { n } }));

/** store.unchangedSince: true only for the revision this connection committed last, while no other connection moved that stream. */
describe('SQLite store: unchangedSince', () => {
  const open = storesOnTempFiles('unchanged');

  it('knows the revision of its own last append, and nothing else', async () => {
    const { store } = open();
    expect(store.unchangedSince!('s', -1n)).toBe(false);
    await store.appendToStream('s', events(2), { expectedRevision: 'no_stream' });
    expect(store.unchangedSince!('s', 1n)).toBe(true);
    expect(store.unchangedSince!('s', 0n)).toBe(false);
    expect(store.unchangedSince!('t', 1n)).toBe(false);
    await Promise.all([store.appendToStream('s', events(1), { expectedRevision: 1n }), store.appendToStream('t', events(1))]);
    expect([store.unchangedSince!('s', 1n), store.unchangedSince!('s', 2n), store.unchangedSince!('t', 0n)]).toEqual([false, true, true]);
  });

  it('a refused or replayed append leaves it as it was', async () => {
    const { store } = open();
    const written = events(1);
    await store.appendToStream('s', written, { expectedRevision: 'no_stream' });
    await expect(store.appendToStream('s', events(1), { expectedRevision: 5n })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    expect(await store.appendToStream('s', written, { expectedRevision: 'no_stream' })).toMatchObject({ written: false });
    expect(store.unchangedSince!('s', 0n)).toBe(true);
  });

  it('is false once another connection on the same file committed (another process or another store)', async () => {
    const { store, file } = open();
    await store.appendToStream('s', events(1), { expectedRevision: 'no_stream' });
    const other = open(file).store;
    await other.appendToStream('s', events(1), { expectedRevision: 0n });
    expect(store.unchangedSince!('s', 0n)).toBe(false);
    expect(store.unchangedSince!('s', 1n)).toBe(false);
    await store.appendToStream('s', events(1), { expectedRevision: 1n });
    expect(store.unchangedSince!('s', 2n)).toBe(true);
  });

  it('stays true across another connection commits that left the stream alone (serve --workers N), and is false once one moved it', async () => {
    const { store, file } = open();
    for (const name of ['s', 'd', 't']) await store.appendToStream(name, events(1), { expectedRevision: 'no_stream' });
    const other = open(file).store;
    await other.appendToStream('elsewhere', events(3));
    expect([store.unchangedSince!('s', 0n), store.unchangedSince!('d', 0n), store.unchangedSince!('t', 0n)]).toEqual([true, true, true]);
    await other.appendToStream('s', events(1), { expectedRevision: 0n });
    await other.deleteStream('d');
    await other.tombstoneStream('t');
    expect([store.unchangedSince!('s', 0n), store.unchangedSince!('d', 0n), store.unchangedSince!('t', 0n)]).toEqual([false, false, false]);
    // A head found stale is dropped: the stream is read again, whatever comes next.
    expect(store.unchangedSince!('s', 1n)).toBe(false);
  });

  it('is false after a delete or a tombstone through the same store, and after close', async () => {
    const { store } = open();
    await store.appendToStream('s', events(1), { expectedRevision: 'no_stream' });
    await store.appendToStream('t', events(1), { expectedRevision: 'no_stream' });
    await store.appendToStream('u', events(1), { expectedRevision: 'no_stream' });
    const append = store.appendToStream('s', events(1), { expectedRevision: 0n }); // queued before the delete
    await store.deleteStream('s');
    await append;
    await store.tombstoneStream('t');
    expect([store.unchangedSince!('s', 1n), store.unchangedSince!('t', 0n), store.unchangedSince!('u', 0n)]).toEqual([false, false, true]);
    await store.close();
    expect(store.unchangedSince!('u', 0n)).toBe(false);
  });

  it('with hint, reads data_version once a macrotask: it can miss another connection\'s commit made since, which the append it leads to is refused for', async () => {
    const { store, file } = open();
    for (const name of ['s', 't']) await store.appendToStream(name, events(1), { expectedRevision: 'no_stream' });
    await nextMacrotask();
    const other = open(file).store;
    expect(store.unchangedSince!('s', 0n, true)).toBe(true); // data_version read for this macrotask
    await other.deleteStream('s'); // a transaction of its own: no macrotask passes
    await other.tombstoneStream('t');
    expect([store.unchangedSince!('s', 0n, true), store.unchangedSince!('t', 0n, true)]).toEqual([true, true]); // missed
    await expect(store.appendToStream('s', events(1), { expectedRevision: 0n })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    await expect(store.appendToStream('t', events(1), { expectedRevision: 0n })).rejects.toMatchObject({ type: 'stream_deleted' });
    expect(await other.readStream('s').catch((error: { type: string }) => error.type)).toBe('stream_not_found');
    // Without hint it looks again at once, and in the next macrotask the hint does too.
    expect(store.unchangedSince!('s', 0n)).toBe(false);
    await nextMacrotask();
    expect(store.unchangedSince!('t', 0n, true)).toBe(false);
  });
});
