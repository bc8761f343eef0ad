import { afterEach, describe, expect, it } from 'vitest';
import { newId, type EventData, type EventStore } from '@session-ledger/core';
import { openSqliteStore, type Durability } from '@session-ledger/store-sqlite';
import { EAGER_PER_TURN } from '../../packages/store-sqlite/src/flushScheduler.js';
import { tempLedger } from './tempLedger.js';

const one = (n: number): EventData[] => [{ id: newId(), type: 'written', data: { n } }];

/** A flag that turns true in the check phase of the event loop's current turn. */
const turnMarker = () => {
  const marker = { turned: false };
  setImmediate(() => {
    marker.turned = true;
  });
  return marker;
};

describe('SQLite store: when a group commits (flushScheduler.ts)', () => {
  const temps: Array<ReturnType<typeof tempLedger>> = [];
  const stores: EventStore[] = [];
  const open = (durability: Durability = 'normal') => {
    const temp = tempLedger('schedule');
    temps.push(temp);
    const groups: number[] = [];
    const store = openSqliteStore(temp.file, { durability, onGroupCommit: (appends) => groups.push(appends) });
    stores.push(store);
    return { store, groups };
  };

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const temp of temps.splice(0)) temp.remove();
  });

  it('a lone awaited append at synchronous=NORMAL commits without waiting for a turn of the event loop', async () => {
    const { store, groups } = open();
    const marker = turnMarker();
    await store.appendToStream('lone', one(0), { expectedRevision: 'no_stream' });
    expect(marker.turned).toBe(false);
    expect(groups).toEqual([1]);
    expect(await store.readStream('lone')).toHaveLength(1);
  });

  it('under FULL durability a group waits for the turn (one fsync for whatever arrives in it)', async () => {
    const { store, groups } = open('full');
    const marker = turnMarker();
    await store.appendToStream('full', one(0));
    expect(marker.turned).toBe(true);
    expect(groups).toEqual([1]);
  });

  it(`a writer awaiting each append lets the event loop turn after ${EAGER_PER_TURN} commits`, async () => {
    const { store, groups } = open();
    const marker = turnMarker();
    let firstSeen = -1;
    let expected: bigint | 'no_stream' = 'no_stream';
    for (let n = 1; n <= 3 * EAGER_PER_TURN; n += 1) {
      expected = (await store.appendToStream('loop', one(n), { expectedRevision: expected })).nextExpectedRevision;
      if (marker.turned && firstSeen < 0) firstSeen = n;
    }
    expect(firstSeen).toBe(EAGER_PER_TURN + 1);
    expect(groups.every((size) => size === 1)).toBe(true);
    expect(await store.readStream('loop')).toHaveLength(3 * EAGER_PER_TURN);
  });

  it('appends submitted from separate callbacks of one turn (HTTP requests) still share a commit', async () => {
    const { store, groups } = open();
    const done = await new Promise<unknown[]>((resolve) => {
      const pending: Array<Promise<unknown>> = [];
      for (let n = 0; n < 6; n += 1) {
        setImmediate(() => {
          pending.push(store.appendToStream(`caller-${n}`, one(n)));
          if (pending.length === 6) resolve(Promise.all(pending));
        });
      }
    });
    expect(done).toHaveLength(6);
    expect(groups.reduce((sum, size) => sum + size, 0)).toBe(6);
    // The first may commit at once; the other five wait for the turn and share one commit.
    expect(groups.length).toBeLessThanOrEqual(2);
    expect(groups[groups.length - 1]).toBeGreaterThanOrEqual(5);
  });

  it('after a shared group the next waits for the turn; after a lone one, it need not', async () => {
    const { store, groups } = open();
    await Promise.all([0, 1, 2, 3].map((n) => store.appendToStream(`many-${n}`, one(n))));
    expect(groups).toEqual([4]);
    const first = turnMarker();
    await store.appendToStream('after', one(4));
    expect(first.turned).toBe(true);
    const second = turnMarker();
    await store.appendToStream('after', one(5));
    expect(second.turned).toBe(false);
    expect(groups).toEqual([4, 1, 1]);
  });
});
