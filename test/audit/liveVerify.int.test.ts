import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLedger, newId, verifyLog, type EventStore, type ParallelScanner } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { tamper } from './tamperFixture.js';
import { buildLog } from '../../packages/store-sqlite/src/log/tables.js';

/**
 * A live ledger: appends land while verify runs. The seam: the SQLite store's own scanner (worker
 * threads; `uncovered` on the file), with `during` run after the ranges are scanned and before
 * verify counts what lies outside them: the window in which a writer's appends land past the size
 * verify read.
 */
const liveScanner = (store: EventStore, during: () => Promise<void>): ParallelScanner => {
  const real = store.log!.parallel!;
  return {
    workers: real.workers,
    uncovered: real.uncovered!.bind(real),
    scan: async (ranges, cut, onScanned) => {
      const scans = await real.scan(ranges, cut, onScanned);
      await during();
      return scans;
    },
  };
};

const write = async (store: EventStore, events: number, from = 0) => {
  const ledger = createLedger(store);
  for (let n = from; n < from + events; n += 1) await ledger.append(`session-${n % 3}`, [{ id: newId(), type: 'message', data: { n } }]);
};

/** An event inserted behind the store's back at `position` (a copy of the first event, as `stream`@0). */
const insertStray = (file: string, position: number, stream: string) =>
  tamper(file, (db) => db.prepare(`INSERT INTO events (position, stream, revision, id, type, data, metadata, created) SELECT ?, ?, 0, id, type, data, metadata, created FROM events WHERE position = 1`).run(position, stream));

const breaksOf = (report: { breaks: Array<{ kind: string; stream: string | null; revision: bigint | null }> }) => report.breaks.map((item) => `${item.kind} ${item.stream}@${item.revision}`);

describe('verify on a live ledger: appends during verify cost only the new events', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('live13');
  });
  afterEach(() => temp.remove());

  it('appends (and a delete) landing during verify: no break, and strays are sought only above the last position verified', async () => {
    const store = openSqliteStore(temp.file);
    await write(store, 100);
    const strays = vi.spyOn(store.log!, 'strays');
    const scanner = liveScanner(store, async () => {
      await write(store, 20, 100);
      await store.deleteStream('session-2');
      await write(store, 5, 120);
    });
    const report = await verifyLog(store, { parallel: { minLeaves: 0, span: 16, scanner } });
    expect(report).toMatchObject({ ok: true, size: 100, events: 100, breakCount: 0 });
    // Not the whole-file query: bounded above leaf 99's position, from the size verified.
    expect(strays.mock.calls).toEqual([[{ after: 100n, fromLeaf: 100 }]]);
    // The log grown since verifies clean as a whole, with no stray query at all.
    strays.mockClear();
    expect(await verifyLog(store, { parallel: { minLeaves: 0, span: 16 } })).toMatchObject({ ok: true, size: 126, breakCount: 0 });
    expect(strays).not.toHaveBeenCalled();
    await store.close();
  });

  it('a delete by another connection landing just after verify listed the stream states: no break, and the next verify holds the state to it', async () => {
    const store = openSqliteStore(temp.file);
    await write(store, 30);
    const other = openSqliteStore(temp.file);
    const listStreams = store.listStreams!.bind(store);
    // The states are read before the delete commits; its leaf lands before verify reads the log's end.
    const live: EventStore = { ...store, log: store.log, listStreams: async () => {
      const states = await listStreams();
      await other.deleteStream('session-1');
      return states;
    } };
    expect(await verifyLog(live, { parallel: false })).toMatchObject({ ok: true, size: 30, breakCount: 0 });
    expect(await verifyLog(store, { parallel: false })).toMatchObject({ ok: true, size: 31, breakCount: 0 });
    tamper(temp.file, (db) => db.prepare(`UPDATE streams SET first_live = 0 WHERE name = 'session-1'`).run());
    expect(breaksOf(await verifyLog(store, { parallel: false }))).toEqual(['hidden session-1@null']);
    await other.close();
    await store.close();
  });

  it.each([
    ['appends, a soft delete and more appends, just after verify read the deletion records', false],
    ['appends as verify lists the stream states, then a soft delete of what they wrote and more appends just after it read the deletion records', true],
  ] as const)('%s (another connection): no break (outside test: deletion, hidden)', async (_what, appendWhileListing) => {
    const store = openSqliteStore(temp.file);
    await write(store, 30);
    const other = openSqliteStore(temp.file);
    let fired = false;
    const log = store.log!;
    const live: EventStore = {
      ...store,
      listStreams: async () => {
        if (appendWhileListing) await write(other, 3, 30);
        return store.listStreams!();
      },
      log: {
        ...log,
        deletions: async () => {
          const records = await log.deletions();
          if (!fired) {
            fired = true;
            if (!appendWhileListing) await write(other, 3, 30);
            await other.deleteStream('session-1');
            await write(other, 6, 33);
          }
          return records;
        },
      },
    };
    const report = await verifyLog(live, { parallel: false });
    expect(fired).toBe(true);
    expect(breaksOf(report)).toEqual([]);
    expect(await verifyLog(store, { parallel: false })).toMatchObject({ ok: true, breakCount: 0 });
    await other.close();
    await store.close();
  });

  it('a stray inserted behind the store\'s back during that window is reported, above the last span (bounded) and below it (whole file)', async () => {
    const setup = openSqliteStore(temp.file);
    await write(setup, 100);
    await setup.close();
    // Positions after leaf 63 moved up by 1000 and the log rebuilt over them (leaves commit to positions): a gap between the ranges of 16.
    tamper(temp.file, (db) => {
      db.prepare(`UPDATE events SET position = position + 1000 WHERE position > 64`).run();
      db.exec('DELETE FROM log_leaves; DELETE FROM log_nodes;');
      buildLog(db);
    });
    const store = openSqliteStore(temp.file);
    const strays = vi.spyOn(store.log!, 'strays');
    const above = liveScanner(store, async () => {
      await write(store, 10, 100);
      insertStray(temp.file, 5000, 'session-9');
      await write(store, 10, 110);
    });
    const first = await verifyLog(store, { parallel: { minLeaves: 0, span: 16, scanner: above } });
    expect(breaksOf(first)).toEqual(['stray session-9@0']);
    expect(first.breaks[0]).toMatchObject({ position: 5000n, message: 'session-9@0: stored at position 5000 but in no leaf of the log' });
    expect(strays.mock.calls).toEqual([[{ after: 1100n, fromLeaf: 100 }]]);

    strays.mockClear();
    const below = liveScanner(store, async () => {
      await write(store, 10, 120);
      insertStray(temp.file, 500, 'session-8');
    });
    const second = await verifyLog(store, { parallel: { minLeaves: 0, span: 16, scanner: below } });
    expect(breaksOf(second)).toEqual(['stray session-8@0', 'stray session-9@0']);
    expect(second.breaks.map((item) => item.position)).toEqual([500n, 5000n]);
    expect(strays.mock.calls).toEqual([[undefined]]);
    // The sweep, on the log as it now stands, names the same strays.
    expect(breaksOf(await verifyLog(store, { parallel: false }))).toEqual(breaksOf(second));
    await store.close();
  });

  it('the SQLite store\'s bounded stray query answers as the whole-file one, a deletion leaf\'s position included', async () => {
    const store = openSqliteStore(temp.file);
    await write(store, 100);
    await store.deleteStream('session-2');
    await write(store, 10, 100);
    await store.close();
    // Leaf 100 is the deletion's: its position moved to where a stray is put (the whole-file query counts it held), another stray past it.
    tamper(temp.file, (db) => {
      db.prepare('UPDATE log_leaves SET position = 3000 WHERE leaf_index = 100 AND deletion IS NOT NULL').run();
    });
    insertStray(temp.file, 3000, 'session-8');
    insertStray(temp.file, 4000, 'session-9');
    const reopened = openSqliteStore(temp.file);
    const whole = await reopened.log!.strays();
    expect(whole.map((event) => `${event.stream}@${event.revision} at ${event.position}`)).toEqual(['session-9@0 at 4000']);
    // Leaves 0..99 hold positions 1..100; 100 is the deletion leaf; the bound seeks from leaf 101 on.
    expect(await reopened.log!.strays({ after: 100n, fromLeaf: 101 })).toEqual(whole);
    expect(await reopened.log!.strays({ after: 4000n, fromLeaf: 101 })).toEqual([]);
    await reopened.close();
  });
});
