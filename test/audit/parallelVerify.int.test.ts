import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainHash, createLedger, HASH, inProcessScanner, newId, PREV_HASH, treeRoot, verifyLog, type EventStore, type JsonObject, type JsonValue, type ParallelScanner } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { buildLog } from '../../packages/store-sqlite/src/log/tables.js';
import { CASES, type Case } from './tamperCases.js';
import { editMetadata, positionOf, tamper, writeLedger } from './tamperFixture.js';

/** Breaks only the links between leaves, with every leaf and the tree rebuilt to match: what range edges must catch. */
const rebuildLog = (db: Database.Database) => {
  db.exec('DELETE FROM log_leaves; DELETE FROM log_nodes;');
  buildLog(db);
};
const EDGE_CASES: Case[] = [
  {
    // session-a@5 is leaf 10, its predecessor leaf 8, its successor leaf 12: with spans 1, 2 and 4 a link crosses a range edge.
    name: 'a prevHash rewritten with its own hash and the log rebuilt over it',
    edit: (db) => {
      editMetadata(db, 'session-a', 5, (metadata) => {
        const { [HASH]: _hash, ...rest }: JsonObject = { ...metadata, [PREV_HASH]: '0'.repeat(64) };
        const row = db.prepare(`SELECT id, type, data FROM events WHERE stream = 'session-a' AND revision = 5`).get() as { id: string; type: string; data: string };
        return { ...rest, [HASH]: chainHash({ stream: 'session-a', revision: 5n, id: row.id, type: row.type, data: JSON.parse(row.data) as JsonValue, metadata: rest }) };
      });
      rebuildLog(db);
    },
    expected: [['prev', 'session-a@5'], ['prev', 'session-a@6']],
  },
  {
    // Leaves 7 and 8 (session-b@3, session-a@4) swap positions, the leaves too: positions no longer grow with leaves, across the edge of spans 1 and 8.
    name: 'two events and their leaves swapped in position',
    edit: (db) => {
      const [b, a] = [positionOf(db, 'session-b', 3), positionOf(db, 'session-a', 4)];
      for (const table of ['events', 'log_leaves']) {
        db.prepare(`UPDATE ${table} SET position = -1 WHERE position = ?`).run(b);
        db.prepare(`UPDATE ${table} SET position = ? WHERE position = ?`).run(b, a);
        db.prepare(`UPDATE ${table} SET position = ? WHERE position = -1`).run(a);
      }
    },
    expected: [['position', 'session-a@4']],
  },
];

/** A scanner that counts the ranges it was asked for and how many came back clean. */
const counting = (scanner: ParallelScanner) => {
  const seen = { ranges: 0, clean: 0 };
  const wrapped: ParallelScanner = {
    workers: scanner.workers,
    scan: async (ranges, cut, onScanned) => {
      const scans = await scanner.scan(ranges, cut, onScanned);
      seen.ranges += ranges.length;
      seen.clean += scans.filter((scan) => scan.clean).length;
      return scans;
    },
  };
  return { seen, scanner: wrapped };
};

const split = (store: EventStore, span: number, scanner: ParallelScanner = inProcessScanner(store.log!)) => ({ minLeaves: 0, span, scanner });

describe('verify split into leaf ranges gives the report of the one-thread sweep', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('parallel13');
  });
  afterEach(() => temp.remove());

  it.each([...CASES, ...EDGE_CASES])('$name: the same breaks, in the same order, at every range span', async ({ edit, expected }) => {
    await writeLedger(temp.file);
    tamper(temp.file, edit);
    const store = openSqliteStore(temp.file);
    const sweep = await verifyLog(store, { parallel: false });
    for (const span of [1, 2, 4, 8, 32]) expect(await verifyLog(store, { parallel: split(store, span) })).toEqual(sweep);
    await store.close();
    expect(sweep.ok).toBe(false);
    const found = sweep.breaks.map((item) => [item.kind, `${item.stream}@${item.revision}`]);
    for (const pair of expected) expect(found).toContainEqual(pair);
  });

  it('an untouched ledger with deletions: every range clean and the report of the sweep, also against saved digests of every size', async () => {
    await writeLedger(temp.file);
    const store = openSqliteStore(temp.file);
    const ledger = createLedger(store);
    await store.deleteStream('session-c');
    await ledger.append('session-c', [{ id: newId(), type: 'message', data: { n: 3 } }]);
    await ledger.append('session-a', [{ id: newId(), type: 'message', data: { n: 10 } }]);
    const sweep = await verifyLog(store, { parallel: false });
    expect(sweep).toMatchObject({ ok: true, erased: 3 });
    const leaves = (await store.log!.entries(0, sweep.size)).map((entry) => entry.leafHash);
    for (const span of [1, 2, 4, 8]) {
      const { seen, scanner } = counting(inProcessScanner(store.log!));
      expect(await verifyLog(store, { parallel: split(store, span, scanner) })).toEqual(sweep);
      expect(seen).toEqual({ ranges: Math.ceil(sweep.size / span), clean: Math.ceil(sweep.size / span) });
      for (let size = 0; size <= sweep.size + 1; size += 1) {
        for (const root of [treeRoot(leaves.slice(0, size)).toString('hex'), '0'.repeat(64)]) {
          const digest = { size, root };
          expect(await verifyLog(store, { digest, parallel: split(store, span) })).toEqual(await verifyLog(store, { digest, parallel: false }));
        }
      }
    }
    await store.close();
  });

  // The store's own scanner: worker threads running the built scan (npm test builds first), each on its own connection.
  it('on the SQLite store\'s worker threads: the report of the sweep, clean and tampered', async () => {
    const store = openSqliteStore(temp.file);
    const ledger = createLedger(store);
    for (let n = 0; n < 40; n += 1) await ledger.append(`session-${n % 3}`, [0, 1, 2, 3, 4].map((k) => ({ id: newId(), type: 'message', data: { n, k } })));
    await store.deleteStream('session-1');
    await ledger.append('session-0', [{ id: newId(), type: 'message', data: {} }]);
    expect(store.log!.parallel?.workers).toBeGreaterThan(0);
    const { seen, scanner } = counting(store.log!.parallel!);
    const sweep = await verifyLog(store, { parallel: false });
    expect(sweep).toMatchObject({ ok: true, size: 202, erased: 65 });
    expect(await verifyLog(store, { parallel: split(store, 16, scanner) })).toEqual(sweep);
    expect(seen).toEqual({ ranges: 13, clean: 13 });
    await store.close();
    tamper(temp.file, (db) => db.prepare(`UPDATE events SET data = '{"n":99}' WHERE stream = 'session-2' AND revision = 30`).run());
    const reopened = openSqliteStore(temp.file);
    const tampered = await verifyLog(reopened, { parallel: false });
    expect(tampered.breaks.map((item) => `${item.kind} ${item.stream}@${item.revision}`)).toEqual(['hash session-2@30', 'leaf session-2@30']);
    expect(await verifyLog(reopened, { parallel: { minLeaves: 0, span: 16 } })).toEqual(tampered);
    await reopened.close();
  });

  // Positions past `after` are moved up and the log rebuilt over them (leaves commit to positions: without the rebuild
  // every moved event is a leaf break), which leaves a gap with no leaf; a forged event in it is a stray only the store's
  // stray count can see. After leaf 99 the gap falls inside the range [96, 112) of 16 leaves, after leaf 111 between two ranges.
  it.each([100, 112])('a stray in a gap of positions after position %i: reported on the worker threads as by the sweep', async (after) => {
    const store = openSqliteStore(temp.file);
    const ledger = createLedger(store);
    for (let n = 0; n < 40; n += 1) await ledger.append(`session-${n % 3}`, [0, 1, 2, 3, 4].map((k) => ({ id: newId(), type: 'message', data: { n, k } })));
    await store.close();
    tamper(temp.file, (db) => {
      db.prepare(`UPDATE events SET position = position + 1000 WHERE position > ?`).run(after);
      rebuildLog(db);
      db.prepare(`INSERT INTO events (position, stream, revision, id, type, data, metadata, created) SELECT 500, 'session-9', 0, id, type, data, metadata, created FROM events WHERE position = 1`).run();
    });
    const reopened = openSqliteStore(temp.file);
    const sweep = await verifyLog(reopened, { parallel: false });
    expect(sweep.breaks.map((item) => `${item.kind} ${item.stream}@${item.revision}`)).toEqual(['stray session-9@0']);
    expect(await verifyLog(reopened, { parallel: { minLeaves: 0, span: 16 } })).toEqual(sweep);
    await reopened.close();
  });

  // The scans copy flat data with its keys sorted before the chain text; keys that cannot be copied so must not change the hash.
  it('data with keys out of order, integer-like keys, a __proto__ key and nested values verifies clean, split and swept', async () => {
    const writer = openSqliteStore(temp.file);
    const ledger = createLedger(writer);
    const shapes = ['{"b":1,"a":"x"}', '{"b":1,"10":2,"2":3,"a":null}', '{"b":{"d":1,"c":2},"a":[1]}', '{"n":1.5e300,"m":"\\u00e9\\n"}'];
    for (const [n, text] of shapes.entries()) await ledger.append(`session-${n}`, [{ id: newId(), type: 'message', data: JSON.parse(text) as JsonValue }]);
    await writer.close();
    // A __proto__ key is refused on append since session 11; a file written before may hold one: written here as such a version did.
    tamper(temp.file, (db) => {
      const text = '{"z":true,"__proto__":1,"a":2}';
      const id = newId();
      const metadata: JsonObject = { [PREV_HASH]: null };
      const hash = chainHash({ stream: 'session-old', revision: 0n, id, type: 'message', data: JSON.parse(text) as JsonValue, metadata });
      db.prepare(`INSERT INTO events (position, stream, revision, id, type, data, metadata, created) VALUES ((SELECT max(position) + 1 FROM events), 'session-old', 0, ?, 'message', ?, ?, ?)`).run(id, text, JSON.stringify({ ...metadata, [HASH]: hash }), new Date().toISOString());
      db.prepare(`INSERT INTO streams (name, last_revision) VALUES ('session-old', 0)`).run();
      rebuildLog(db);
    });
    const store = openSqliteStore(temp.file);
    const sweep = await verifyLog(store, { parallel: false });
    expect(sweep).toMatchObject({ ok: true, events: shapes.length + 1 });
    for (const span of [1, 2, 8]) expect(await verifyLog(store, { parallel: split(store, span) })).toEqual(sweep);
    await store.close();
  });

  it('a scanner that fails or stops short (a worker that could not start) leaves verify to the sweep, with its report', async () => {
    await writeLedger(temp.file);
    const store = openSqliteStore(temp.file);
    const sweep = await verifyLog(store, { parallel: false });
    const inProcess = inProcessScanner(store.log!);
    const short: ParallelScanner = { workers: 2, scan: async (ranges, cut) => (await inProcess.scan(ranges, cut)).slice(0, 1) };
    for (const scanner of [short, { workers: 2, scan: async () => [] }]) expect(await verifyLog(store, { parallel: { minLeaves: 0, span: 4, scanner } })).toEqual(sweep);
    expect(sweep).toMatchObject({ ok: true, events: 23 });
    await store.close();
  });
});
