import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, newId, verifyLog, type EventData, type EventStore } from '@session-ledger/core';
import { migrateStores, PLACEHOLDER_TYPE } from '@session-ledger/migrate';
import { openEsdbTestStore } from '../esdb-server/index.js';
import { appendAfterDelete, comparable, liveEvents, outcome, sqliteAt, tempDir } from './fixture.js';

const dir = tempDir();
afterAll(() => dir.remove());

/** Longer than the migration's 500-event stand-in chunks, so the rebuild takes several appends. */
const DELETED = 1200;

const populateLong = async (store: EventStore) => {
  const ledger = createLedger(store);
  for (let start = 0; start < DELETED; start += 200) {
    await ledger.append('long', Array.from({ length: 200 }, (_, n) => ({ id: newId(), type: 'turn.recorded', data: { n: start + n } })));
  }
  const [head] = await store.readStream('long', { direction: 'backwards', maxCount: 1 });
  await store.deleteStream('long', { expectedRevision: BigInt(DELETED - 1) });
  await appendAfterDelete(store, 'long', head!, 2);
  await ledger.append('other', [{ id: newId(), type: 'turn.recorded', data: { n: 1 } }]);
  for (let start = 0; start < DELETED; start += 200) {
    await ledger.append('long-gone', Array.from({ length: 200 }, (_, n) => ({ id: newId(), type: 'turn.recorded', data: { n: start + n } })));
  }
  await store.deleteStream('long-gone', { expectedRevision: BigInt(DELETED - 1) });
};

const isStandIns = (events: EventData[]) => events.some((event) => event.type === PLACEHOLDER_TYPE);

type CrashPoint = 'second stand-in chunk' | 'stand-ins written';

/** The target as a process killed at one point of one stream's prefix rebuild sees it. */
const crashing = (to: EventStore, victim: string, at: CrashPoint): EventStore => {
  let standInAppends = 0;
  return {
    ...to,
    appendToStream: async (stream, events, options) => {
      if (stream === victim && isStandIns(events) && ++standInAppends === 2 && at === 'second stand-in chunk') throw new Error('killed');
      return to.appendToStream(stream, events, options);
    },
    storeCheckpoint: async (name, position) => {
      if (at === 'stand-ins written' && name.endsWith(`:gap:${victim}`)) throw new Error('killed');
      return to.storeCheckpoint(name, position);
    },
  };
};

describe.each(['sqlite', 'esdb'] as const)('a migration killed while it rebuilds a soft-deleted prefix (%s target)', (kind) => {
  let from: EventStore;
  let to: EventStore;
  beforeEach(async () => {
    from = sqliteAt(dir.path(`${newId()}.sqlite`));
    to = kind === 'sqlite' ? sqliteAt(dir.path(`${newId()}.sqlite`)) : await openEsdbTestStore();
    await populateLong(from);
  });
  afterEach(async () => {
    await from.close();
    await to.close();
  });

  // long: soft-deleted up to 1199 and continued (rebuilt by the copy); long-gone: soft-deleted whole (rebuilt after it).
  it.each([
    ['long', 'second stand-in chunk'],
    ['long', 'stand-ins written'],
    ['long-gone', 'second stand-in chunk'],
    ['long-gone', 'stand-ins written'],
  ] as Array<[string, CrashPoint]>)('%s killed at "%s": the next run finishes it, no stand-in stays live', async (victim, at) => {
    await expect(migrateStores({ from, to: crashing(to, victim, at) })).rejects.toThrow('killed');
    const live = await to.readStream(victim);
    expect(live[0]!.type).toBe(PLACEHOLDER_TYPE);

    const second = await migrateStores({ from, to });
    expect(second.mismatches).toEqual([]);
    expect(second.ok).toBe(true);
    expect(comparable(await to.readStream('long'))).toEqual(comparable(await from.readStream('long')));
    expect((await to.readStream('long')).map((event) => event.revision)).toEqual([BigInt(DELETED), BigInt(DELETED + 1)]);
    expect(await outcome(to.readStream('long-gone'))).toBe('stream_not_found');
    expect((await liveEvents(to)).filter((event) => event.type === PLACEHOLDER_TYPE)).toEqual([]);
    expect((await createLedger(to).verify()).broken).toBeNull();
    if (kind === 'sqlite') expect((await verifyLog(to)).ok).toBe(true);
  });
});
