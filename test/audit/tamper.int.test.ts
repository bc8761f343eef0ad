import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, newId, verifyLog } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { CASES, deleteEvents } from './tamperCases.js';
import { editData, tamper, writeLedger } from './tamperFixture.js';

describe('the log commitment catches every tamper case of issue 13 on a SQLite ledger', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('tamper13');
  });
  afterEach(() => temp.remove());

  /** The report of verify after session-c was deleted (soft or tombstone) through the store, then `edit` ran on the file. */
  const verifiedAfterDeletion = async (kind: 'soft' | 'tombstone', edit: Parameters<typeof tamper>[1]) => {
    await writeLedger(temp.file);
    const store = openSqliteStore(temp.file);
    await (kind === 'soft' ? store.deleteStream('session-c') : store.tombstoneStream('session-c'));
    await store.close();
    tamper(temp.file, edit);
    const reopened = openSqliteStore(temp.file);
    const report = await verifyLog(reopened);
    await reopened.close();
    return report;
  };
  const named = (report: Awaited<ReturnType<typeof verifyLog>>) => report.breaks.map((item) => `${item.kind} ${item.stream}@${item.revision}: ${item.message}`);

  it('an untouched ledger verifies', async () => {
    await writeLedger(temp.file);
    const store = openSqliteStore(temp.file);
    const report = await verifyLog(store);
    await store.close();
    expect(report).toMatchObject({ ok: true, size: 23, events: 23, erased: 0, breakCount: 0, breaks: [] });
  });

  it.each(CASES)('$name', async ({ edit, expected }) => {
    await writeLedger(temp.file);
    tamper(temp.file, edit);
    const store = openSqliteStore(temp.file);
    const report = await verifyLog(store);
    await store.close();
    expect(report.ok).toBe(false);
    const found = report.breaks.map((item) => [item.kind, `${item.stream}@${item.revision}`]);
    for (const pair of expected) expect(found).toContainEqual(pair);
  });

  it('a leaf deleted from the log itself: the gap is named, and the root no longer holds', async () => {
    await writeLedger(temp.file);
    tamper(temp.file, (db) => db.prepare('DELETE FROM log_leaves WHERE leaf_index = 5').run());
    const store = openSqliteStore(temp.file);
    const report = await verifyLog(store);
    await store.close();
    expect(report.breaks.map((item) => [item.kind, item.leaf])).toEqual(expect.arrayContaining([['root', 6], ['root', null], ['stray', null]]));
  });

  it('a leaf deleted where no stored node covers it: verify names the gap and the missing root (digest and proof refuse with log_damaged)', async () => {
    await writeLedger(temp.file);
    tamper(temp.file, (db) => db.prepare('DELETE FROM log_leaves WHERE leaf_index = 20').run());
    const store = openSqliteStore(temp.file);
    const report = await verifyLog(store);
    const digest = store.log!.digest().catch((error: unknown) => error);
    const proof = store.log!.proof('session-a', 0n).catch((error: unknown) => error);
    expect(await digest).toMatchObject({ type: 'log_damaged', details: { leaf: 20 } });
    expect(await proof).toMatchObject({ type: 'log_damaged', details: { leaf: 20 } });
    await store.close();
    expect(report).toMatchObject({ ok: false, size: 22 });
    expect(report.breaks.map((item) => [item.kind, item.leaf])).toEqual(expect.arrayContaining([['root', 21], ['root', 20]]));
  });

  it('stored nodes deleted, or one written for a subtree not complete yet: roots, proofs and appends go on', async () => {
    await writeLedger(temp.file);
    const before = openSqliteStore(temp.file);
    const digest = await before.log!.digest();
    await before.close();
    tamper(temp.file, (db) => {
      db.prepare('DELETE FROM log_nodes').run();
      db.prepare('INSERT INTO log_nodes (level, idx, hash) VALUES (4, 1, zeroblob(32))').run();
    });
    const store = openSqliteStore(temp.file);
    expect(await store.log!.digest()).toEqual(digest);
    expect(await verifyLog(store, { digest })).toMatchObject({ ok: true, breakCount: 0 });
    const ledger = createLedger(store);
    for (let n = 0; n < 10; n += 1) await ledger.append('session-d', [{ id: newId(), type: 'message', data: { n } }]);
    expect(await verifyLog(store, { digest })).toMatchObject({ ok: true, size: 33, breakCount: 0 });
    await store.close();
  });

  it('a deletion forged with its record and stream state: the record is in no leaf, so the events are missing, not erased', async () => {
    await writeLedger(temp.file);
    tamper(temp.file, (db) => {
      deleteEvents(db, 'session-c', [0, 1, 2]);
      db.prepare(`UPDATE streams SET first_live = 3 WHERE name = 'session-c'`).run();
      db.prepare(
        `INSERT INTO log_deletions (stream, kind, from_revision, head_revision, head_hash, first_leaf, last_leaf, log_size, at) VALUES ('session-c', 'soft', 0, 2, NULL, 20, 22, 23, '2026-01-01')`,
      ).run();
    });
    const store = openSqliteStore(temp.file);
    const report = await verifyLog(store);
    await store.close();
    expect(report.erased).toBe(0);
    expect(report.breaks.map((item) => `${item.kind} ${item.stream}@${item.revision}`)).toEqual(
      expect.arrayContaining(['deletion session-c@2', 'missing session-c@0', 'missing session-c@2', 'hidden session-c@2']),
    );
  });

  it.each([
    ['on one thread', false as const],
    ['in worker ranges (the kept head and the record in different ranges)', { minLeaves: 0, span: 4 }],
    ['in one worker range (the kept head and the record in it)', { minLeaves: 0, span: 32 }],
  ])('a deletion the store could not have written, %s: its record and leaf committed, but through a head before a later kept event', async (_how, parallel) => {
    await writeLedger(temp.file);
    // The store's own delete, run while revisions 5..9 of session-a are set aside (as a forger with the
    // store's code could): it erases 0..4 and records head 4 in a committed leaf; 5..9 are put back.
    tamper(temp.file, (db) => {
      db.exec(`CREATE TABLE aside AS SELECT * FROM events WHERE stream = 'session-a' AND revision >= 5`);
      db.exec(`DELETE FROM events WHERE stream = 'session-a' AND revision >= 5`);
    });
    const forger = openSqliteStore(temp.file);
    await forger.deleteStream('session-a');
    await forger.close();
    tamper(temp.file, (db) => {
      db.exec(`INSERT INTO events SELECT * FROM aside; DROP TABLE aside`);
      db.exec(`UPDATE streams SET last_revision = 9 WHERE name = 'session-a'`);
    });

    const store = openSqliteStore(temp.file);
    const report = await verifyLog(store, { parallel });
    await store.close();
    expect(report.erased).toBe(5);
    expect(named(report)).toEqual([
      "deletion session-a@4: session-a@4: the soft deletion record erases through revision 4, but the stream's last event leaf below it is revision 9: the store deletes through the head",
    ]);
  });

  it('a real deletion\'s record edited (its head raised to hide more) no longer matches its leaf', async () => {
    const report = await verifiedAfterDeletion('soft', (db) => db.prepare(`UPDATE log_deletions SET head_revision = 5 WHERE stream = 'session-c'`).run());
    expect(report.breaks.map((item) => item.kind)).toEqual(expect.arrayContaining(['leaf']));
    expect(report.ok).toBe(false);
  });

  it("a tombstoned stream's state row deleted: the tombstone no longer holds, so verify names it", async () => {
    const report = await verifiedAfterDeletion('tombstone', (db) => db.prepare(`DELETE FROM streams WHERE name = 'session-c'`).run());
    expect(named(report)).toEqual(["hidden session-c@2: session-c@2: the stream's state is gone: its recorded tombstone no longer holds: the stream could be written again"]);
  });

  it("a real deletion's leaf range widened: the record no longer names the leaves of the events it erased", async () => {
    const report = await verifiedAfterDeletion('soft', (db) => db.prepare(`UPDATE log_deletions SET first_leaf = 0, last_leaf = 22 WHERE stream = 'session-c'`).run());
    expect(named(report)).toEqual(['deletion session-c@2: session-c@2: the soft deletion record names leaves 0..22, the events it erased are at leaves 20..22']);
  });

  it('lists every break, not the first: tampering after a broken event is still reported', async () => {
    await writeLedger(temp.file);
    tamper(temp.file, (db) => {
      editData(db, 'session-a', 1, (data) => ({ ...data, n: 99 }));
      deleteEvents(db, 'session-b', [7]);
      db.prepare(`UPDATE events SET created = 'x' WHERE stream = 'session-c' AND revision = 2`).run();
    });
    const store = openSqliteStore(temp.file);
    const report = await verifyLog(store);
    const capped = await verifyLog(store, { maxBreaks: 1 });
    await store.close();
    expect(report.breaks.map((item) => `${item.kind} ${item.stream}@${item.revision}`)).toEqual([
      'hash session-a@1',
      'leaf session-a@1',
      'leaf session-c@2',
      'missing session-b@7',
    ]);
    expect(capped).toMatchObject({ breakCount: 4, breaks: [{ kind: 'hash', stream: 'session-a' }] });
  });

  it('a ledger append after verify-clean tampering of another stream leaves the break reported', async () => {
    await writeLedger(temp.file);
    tamper(temp.file, (db) => deleteEvents(db, 'session-a', [9]));
    const store = openSqliteStore(temp.file);
    await createLedger(store).append('session-d', [{ id: newId(), type: 'message', data: {} }]);
    const report = await verifyLog(store);
    await store.close();
    expect(report.breaks.map((item) => item.kind)).toEqual(['missing']);
    expect(report.size).toBe(24);
  });
});
