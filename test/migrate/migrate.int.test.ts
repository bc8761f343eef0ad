import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, newId, type EventStore } from '@session-ledger/core';
import { migrateStores } from '@session-ledger/migrate';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer, type EsdbTestServer } from '../esdb-server/index.js';
import { LIVE_STREAMS, allEvents, comparable, liveEvents, outcome, populate, sqliteAt, tempDir } from './fixture.js';

const dir = tempDir();
afterAll(() => dir.remove());

type Kind = 'sqlite' | 'esdb';
const servers: EsdbTestServer[] = [];
const open = async (kind: Kind): Promise<EventStore> => {
  if (kind === 'sqlite') return sqliteAt(dir.path(`${newId()}.sqlite`));
  const server = await startEsdbTestServer();
  servers.push(server);
  return openEventStoreDbStore(server.url);
};

describe.each([
  ['sqlite', 'sqlite'],
  ['sqlite', 'esdb'],
  ['esdb', 'sqlite'],
] as Array<[Kind, Kind]>)('migrate %s to %s', (fromKind, toKind) => {
  let from: EventStore;
  let to: EventStore;
  beforeEach(async () => {
    from = await open(fromKind);
    to = await open(toKind);
    await populate(from);
  });
  afterEach(async () => {
    await from.close();
    await to.close();
    for (const server of servers.splice(0)) await server.close();
  });

  it('copies every event in $all order with its id, revision, data and metadata, and verifies each stream', async () => {
    const summary = await migrateStores({ from, to });
    expect(summary.mismatches).toEqual([]);
    expect(summary.ok).toBe(true);
    expect(comparable(await allEvents(to))).toEqual(comparable(await liveEvents(from)));
    for (const stream of LIVE_STREAMS) {
      expect(comparable(await to.readStream(stream))).toEqual(comparable(await from.readStream(stream)));
    }
    expect((await createLedger(to).verify()).broken).toBeNull();
  });

  it('copies none of the events of deleted streams that the source\'s $all still holds, and counts them', async () => {
    // EventStoreDB keeps the 3 + 2 + 1 deleted events (session-continued's prefix, session-gone, session-erased) until a scavenge.
    const held = fromKind === 'esdb' ? 6 : 0;
    expect((await allEvents(from)).length - (await liveEvents(from)).length).toBe(held);
    const summary = await migrateStores({ from, to });
    expect(summary).toMatchObject({ ok: true, eventsOfDeletedStreams: held });
    const copied = new Set((await allEvents(to)).map((event) => event.id));
    const deleted = (await allEvents(from)).filter((event) => !copied.has(event.id));
    expect(deleted).toHaveLength(held);
    expect(await outcome(to.readStream('session-gone'))).toBe('stream_not_found');
    expect((await to.readStream('session-continued')).map((event) => event.revision)).toEqual([3n, 4n]);
  });

  it('keeps the revisions after a soft delete, so the chain continues in the target', async () => {
    await migrateStores({ from, to });
    const continued = await to.readStream('session-continued');
    expect(continued.map((event) => event.revision)).toEqual([3n, 4n]);
    await createLedger(to).append('session-continued', [{ id: newId(), type: 'turn.recorded', data: { n: 6 } }]);
    expect((await createLedger(to).verify({ stream: 'session-continued' })).broken).toBeNull();
  });

  it('carries deleted streams when the source can list them, and says so in the summary', async () => {
    const summary = await migrateStores({ from, to });
    if (fromKind === 'sqlite') {
      expect(await outcome(to.readStream('session-erased'))).toBe('stream_deleted');
      expect(await outcome(to.appendToStream('session-erased', [{ id: newId(), type: 'x', data: {} }]))).toBe('stream_deleted');
      expect(await outcome(to.readStream('session-gone'))).toBe('stream_not_found');
      // Soft-deleted at the same revision: a new write continues the numbering there.
      const next = await to.appendToStream('session-gone', [{ id: newId(), type: 'x', data: {} }], { expectedRevision: 'no_stream' });
      expect(next.nextExpectedRevision).toBe(2n);
      expect(summary).toMatchObject({ tombstoned: 1, softDeleted: 1, streams: 6, verified: 6 });
    } else {
      // EventStoreDB cannot list streams: wholly deleted ones have no events in $all to copy.
      expect(await outcome(to.readStream('session-erased'))).toBe('stream_not_found');
      expect(summary).toMatchObject({ tombstoned: 0, softDeleted: 0, streams: 4, verified: 4 });
    }
  });
});

describe('an interrupted migration', () => {
  let from: EventStore;
  let to: EventStore;
  beforeEach(async () => {
    from = sqliteAt(dir.path(`${newId()}.sqlite`));
    to = sqliteAt(dir.path(`${newId()}.sqlite`));
    await populate(from);
  });
  afterEach(async () => {
    await from.close();
    await to.close();
  });

  it('resumes after its checkpoint in the target, copying nothing twice', async () => {
    const first = await migrateStores({ from, to, pageSize: 7, maxPages: 2 });
    expect(first).toMatchObject({ complete: false, eventsRead: 14, resumedAfter: null });
    const second = await migrateStores({ from, to, pageSize: 7 });
    expect(second.resumedAfter).toBe(first.position);
    expect(second.ok).toBe(true);
    expect(first.eventsRead + second.eventsRead).toBe((await allEvents(from)).length);
    expect(comparable(await allEvents(to))).toEqual(comparable(await allEvents(from)));
  });

  it('finishes a page the target had partly written when the process died, without duplicates', async () => {
    let appends = 0;
    const dying: EventStore = {
      ...to,
      appendToStream: async (...args) => {
        appends += 1;
        if (appends === 5) throw new Error('killed');
        return to.appendToStream(...args);
      },
    };
    await expect(migrateStores({ from, to: dying, pageSize: 50 })).rejects.toThrow('killed');
    const resumed = await migrateStores({ from, to, pageSize: 13 });
    expect(resumed.resumedAfter).toBeNull();
    expect(resumed.ok).toBe(true);
    const ids = (await allEvents(to)).map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(comparable(await allEvents(to))).toEqual(comparable(await allEvents(from)));
  });

  it('resumes a soft-deleted prefix interrupted between its stand-ins and their deletion', async () => {
    const dying: EventStore = {
      ...to,
      deleteStream: async () => {
        throw new Error('killed');
      },
    };
    await expect(migrateStores({ from, to: dying })).rejects.toThrow('killed');
    // The killed run could not release its lease either: the next run takes it over once it expired.
    const resumed = await migrateStores({ from, to, lease: { now: () => Date.now() + 21_000 } });
    expect(resumed.mismatches).toEqual([]);
    expect((await to.readStream('session-continued')).map((event) => event.revision)).toEqual([3n, 4n]);
  });

  it('reports a target stream that holds other events, and leaves it as it was', async () => {
    const foreign = [{ id: newId(), type: 'foreign', data: { mine: true } }];
    await to.appendToStream('session-b', foreign);
    const before = await to.readStream('session-b');
    const summary = await migrateStores({ from, to });
    expect(summary.ok).toBe(false);
    expect(summary.mismatches.map((mismatch) => mismatch.stream)).toEqual(['session-b']);
    expect(await to.readStream('session-b')).toEqual(before);
    expect(comparable(await to.readStream('session-a'))).toEqual(comparable(await from.readStream('session-a')));
  });

  it('reports a stream the source tombstoned and the target holds soft-deleted with a history of its own, and leaves it as it was (outside test, session 34, helper-95 F4)', async () => {
    const mine = (n: number) => Array.from({ length: n }, (_, i) => ({ id: newId(), type: 'mine', data: { i } }));
    await from.appendToStream('other-history', mine(3));
    await from.tombstoneStream('other-history');
    await to.appendToStream('other-history', mine(6));
    await to.deleteStream('other-history');
    const summary = await migrateStores({ from, to });
    expect(summary.mismatches.map((mismatch) => [mismatch.stream, mismatch.reason])).toContainEqual(['other-history', 'the target already has a deleted stream of that name']);
    // Before, the target's stream was tombstoned: its own writers could never go on with it.
    const state = (await to.listStreams!()).find((info) => info.name === 'other-history');
    expect(state).toMatchObject({ tombstoned: false, lastRevision: 5n });
  });

  it('runs again after it finished: nothing new to copy, everything still verifies', async () => {
    await migrateStores({ from, to });
    const again = await migrateStores({ from, to });
    expect(again).toMatchObject({ ok: true, eventsRead: 0, eventsCopied: 0 });
  });
});

/**
 * EventStoreDB refuses an append over its MaxAppendSize (1 MiB by default; the double too). A run of
 * one stream's consecutive events was one append: a session of 600 ordinary 2 KiB messages, imported
 * in one batch, could not be migrated into a default server (outside review, session 27).
 */
describe('migrate into EventStoreDB: runs larger than one append may carry', () => {
  it('copies a stream whose consecutive events exceed 1 MiB, in appends the server accepts', async () => {
    const from = sqliteAt(dir.path(`${newId()}.sqlite`));
    const server = await startEsdbTestServer();
    const to = openEventStoreDbStore(server.url);
    try {
      const ledger = createLedger(from);
      const text = 'x'.repeat(2048);
      await ledger.append('session-big', Array.from({ length: 600 }, (_, n) => ({ id: newId(), type: 'message.appended', data: { n, text } })), { expectedRevision: 'no_stream' });
      const summary = await migrateStores({ from, to });
      expect(summary.mismatches).toEqual([]);
      expect(comparable(await to.readStream('session-big'))).toEqual(comparable(await from.readStream('session-big')));
      expect((await createLedger(to).verify()).broken).toBeNull();
    } finally {
      await from.close();
      await to.close();
      await server.close();
    }
  });
});
