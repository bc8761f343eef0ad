import { describe, expect, it } from 'vitest';
import { newId, readStreamState, type EventData } from '@session-ledger/core';
import { storesOnTempFiles } from './tempLedger.js';

const events = (count: number): EventData[] => Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'written', data: { n } }));

/**
 * tombstoneStreams: a conversation's deletion in one transaction, every stream or none (a refusal
 * rolls back the tombstones before it), so a write landing under it never leaves half of it
 * (outside test, session 33, helper-92 F2). Another connection sees the same.
 */
describe('SQLite store: tombstoning several streams at once', () => {
  const open = storesOnTempFiles('tombstones');
  const states = async (store: Parameters<typeof readStreamState>[0], names: string[]) => Promise.all(names.map(async (name) => (await readStreamState(store, name)).state));

  it('refuses all of them when one moved, naming it; the others keep their events, then all go at their revisions', async () => {
    const { store, file } = open();
    const { store: other } = open(file);
    await store.appendToStream('a', events(2));
    await store.appendToStream('b', events(1));
    await store.appendToStream('c', events(3));
    await other.appendToStream('c', events(1)); // lands after the revisions were read

    await expect(
      store.tombstoneStreams!([
        { stream: 'a', expectedRevision: 1n },
        { stream: 'b', expectedRevision: 0n },
        { stream: 'c', expectedRevision: 2n },
      ]),
    ).rejects.toMatchObject({ type: 'wrong_expected_version', details: { stream: 'c', actual: '3' } });
    expect(await states(other, ['a', 'b', 'c'])).toEqual(['live', 'live', 'live']);
    expect(await store.readStream('a')).toHaveLength(2);
    // What the rolled-back tombstones touched in this connection's memory is read again: an append decides on what is stored.
    expect((await store.appendToStream('a', events(1), { expectedRevision: 1n })).nextExpectedRevision).toBe(2n);

    const results = await store.tombstoneStreams!([
      { stream: 'a', expectedRevision: 2n },
      { stream: 'b', expectedRevision: 0n },
      { stream: 'c', expectedRevision: 3n },
    ]);
    expect(results).toHaveLength(3);
    expect(await states(other, ['a', 'b', 'c'])).toEqual(['tombstoned', 'tombstoned', 'tombstoned']);
    await expect(store.appendToStream('b', events(1))).rejects.toMatchObject({ type: 'stream_deleted' });
  });
});
