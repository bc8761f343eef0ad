import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, newId, verifyLog } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { tamper, writeLedger } from './tamperFixture.js';

/** A fresh temporary ledger file for each test of the suite, written by `write`; its path. */
const ledgerEach = (label: string, write: (file: string) => Promise<void>): (() => string) => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(async () => {
    temp = tempLedger(label);
    await write(temp.file);
  });
  afterEach(() => temp.remove());
  return () => temp.file;
};

const kinds = (report: { breaks: Array<{ kind: string; leaf: number | null }> }) => report.breaks.map((item) => `${item.kind}@${item.leaf}`);

/**
 * Cells edited behind the store's back into what no store writes: verify reports them as breaks
 * (exit 1), a proof over them is log_damaged, and a dropped table is store_unavailable (exit 4),
 * never an internal error (exit 70 / HTTP 500: outside test, session 14).
 */
describe('a ledger file whose cells no store writes', () => {
  const file = ledgerEach('cells14', writeLedger);

  it.each([
    ['text', 'abc'],
    ['an integer', 7],
    ['a blob of 5 bytes', Buffer.from([1, 2, 3, 4, 5])],
  ] as const)('a leaf hash that is %s: a leaf break in both verify paths, and proofs over it are log_damaged', async (_what, value) => {
    tamper(file(), (db) => db.prepare('UPDATE log_leaves SET hash = ? WHERE leaf_index = 3').run(value));
    const store = openSqliteStore(file());
    for (const parallel of [false, { minLeaves: 0, span: 4 }] as const) {
      const report = await verifyLog(store, { parallel });
      expect(report.ok).toBe(false);
      expect(kinds(report)).toContain('leaf@3');
    }
    await expect(store.log!.leafProof(5)).rejects.toMatchObject({ type: 'log_damaged', details: { leaf: 3 } });
    await store.close();
  });

  it('stored data nested 5,000 deep: a json break naming the event, in both verify paths', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    tamper(file(), (db) => db.prepare("UPDATE events SET data = ? WHERE stream = 'session-a' AND revision = 4").run(deep));
    const store = openSqliteStore(file());
    for (const parallel of [false, { minLeaves: 0, span: 4 }] as const) {
      const report = await verifyLog(store, { parallel });
      expect(report.breaks.map((item) => `${item.kind} ${item.stream}@${item.revision}`)).toContain('json session-a@4');
      expect(report.breaks.find((item) => item.kind === 'json')!.message).toContain('nests deeper than 1000 levels');
    }
    await store.close();
  });

  it.each(['log_nodes', 'log_leaves', 'log_deletions', 'events'])('the table %s dropped: opening the store is store_unavailable, the file damaged', (table) => {
    tamper(file(), (db) => db.exec(`DROP TABLE ${table}`));
    expect(() => openSqliteStore(file())).toThrow(expect.objectContaining({ type: 'store_unavailable', message: expect.stringContaining(`The ledger file is damaged: no such table: ${table}`) }));
  });
});

describe('a stream state cell edited into no whole number', () => {
  const file = ledgerEach('state14', writeLedger);

  it.each([
    ['last_revision', "'abc'"],
    ['last_revision', "''"],
    ['first_live', '1.5'],
    ['tombstoned', "'no'"],
  ])('streams.%s = %s: verify reports it (a hidden break naming the stream), and an append is refused as damage, not as a wrong revision', async (column, value) => {
    tamper(file(), (db) => db.exec(`UPDATE streams SET ${column} = ${value} WHERE name = 'session-c'`));
    const store = openSqliteStore(file());
    const report = await verifyLog(store, { parallel: false });
    expect(report.ok).toBe(false);
    expect(report.breaks.map((item) => item.kind)).toContain('hidden');
    expect(report.breaks.find((item) => item.kind === 'hidden')!.message).toContain(`stream "session-c"'s state holds ${column}`);
    await expect(store.appendToStream('session-c', [{ id: '1b7f0a4e-2f4c-4c3e-9a51-0d8e6f7a9b10', type: 'message', data: {} }], { expectedRevision: 2n })).rejects.toMatchObject({
      type: 'store_unavailable',
      message: expect.stringContaining('The ledger file is damaged'),
    });
    await store.close();
  });
});

/**
 * A stored subtree hash off the root's path: the root (from the right edge) stays right, but an
 * inclusion proof through that subtree does not verify. Verify checks every stored node against the
 * tree the leaves give, on one thread and in the ranges of the worker threads (and the nodes joining
 * them); before, it passed (outside test, session 14: 3 of 3, at 2,400, 22,760 and 100,026 leaves).
 */
describe('a stored subtree hash edited behind the store\'s back', () => {
  const file = ledgerEach('nodes14', async (path) => {
    const store = openSqliteStore(path);
    const ledger = createLedger(store);
    for (let batch = 0; batch < 24; batch += 1) {
      await ledger.append(`session-${batch % 5}`, Array.from({ length: 100 }, (_, n) => ({ id: newId(), type: 'message', data: { n: batch * 100 + n } })));
    }
    await store.close();
  });

  it.each([
    [4, 10],
    [5, 40],
    [7, 1],
    [9, 3],
  ])('at level %i, index %i: a root break naming it on one thread and on worker threads; the digest is unchanged', async (level, index) => {
    const before = openSqliteStore(file());
    const digest = await before.log!.digest();
    await before.close();
    tamper(file(), (db) => expect(db.prepare('UPDATE log_nodes SET hash = ? WHERE level = ? AND idx = ?').run(Buffer.alloc(32, 7), level, index).changes).toBe(1));
    const store = openSqliteStore(file());
    expect(await store.log!.digest()).toEqual(digest);
    for (const parallel of [false, { minLeaves: 0, span: 64 }] as const) {
      const report = await verifyLog(store, { parallel });
      expect(report.breaks.map((item) => `${item.kind}@${item.leaf}`)).toEqual([`root@${index * 2 ** level}`]);
      expect(report.breaks[0]!.message).toContain(`the stored subtree hash at level ${level}, index ${index}`);
    }
    await store.close();
  });

  it('a node that is no hash (text) is the same break', async () => {
    tamper(file(), (db) => db.prepare("UPDATE log_nodes SET hash = 'abc' WHERE level = 4 AND idx = 10").run());
    const store = openSqliteStore(file());
    for (const parallel of [false, { minLeaves: 0, span: 64 }] as const) {
      expect((await verifyLog(store, { parallel })).breaks.map((item) => item.kind)).toEqual(['root']);
    }
    await store.close();
  });
});
