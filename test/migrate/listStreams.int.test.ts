import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore, newId, type EventStore } from '@session-ledger/core';
import { sqliteAt, tempDir } from './fixture.js';

const dir = tempDir();
afterAll(() => dir.remove());

describe.each([
  ['memory', () => createMemoryStore()],
  ['sqlite', () => sqliteAt(dir.path(`${newId()}.sqlite`))],
])('listStreams on the %s store', (_name, open: () => EventStore) => {
  it('lists live, soft-deleted and tombstoned streams with their revisions, which readAll cannot show', async () => {
    const store = open();
    const one = () => [{ id: newId(), type: 't', data: {} }];
    await store.appendToStream('live', [...one(), ...one()]);
    await store.appendToStream('soft', [...one(), ...one(), ...one()]);
    await store.deleteStream('soft', { expectedRevision: 2n });
    await store.appendToStream('hard', one());
    await store.tombstoneStream('hard');
    await store.appendToStream('empty', []);
    const listed = await store.listStreams!();
    const byName = Object.fromEntries(listed.map((info) => [info.name, info]));
    expect(Object.keys(byName).sort()).toEqual(['hard', 'live', 'soft']);
    expect(byName.live).toEqual({ name: 'live', lastRevision: 1n, firstLive: 0n, tombstoned: false });
    expect(byName.soft).toEqual({ name: 'soft', lastRevision: 2n, firstLive: 3n, tombstoned: false });
    expect(byName.hard).toMatchObject({ name: 'hard', tombstoned: true });
    await store.close();
  });
});
