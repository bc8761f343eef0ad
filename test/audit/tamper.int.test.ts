import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainHash, createLedger, HASH, newId, PREV_HASH, verifyLog, type BreakKind, type JsonObject } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { editData, editMetadata, positionOf, rechain, tamper, writeLedger } from './tamperFixture.js';

interface Case {
  name: string;
  edit: (db: Database.Database) => void;
  /** Breaks that must be among those reported: kind and stream@revision. */
  expected: Array<[BreakKind, string]>;
}

const deleteEvents = (db: Database.Database, stream: string, revisions: number[]) => {
  for (const revision of revisions) db.prepare('DELETE FROM events WHERE stream = ? AND revision = ?').run(stream, revision);
};

/** The ten the per-stream chains miss (issue 13), then the eleven they catch. */
const CASES: Case[] = [
  { name: 'the last event of a stream deleted', edit: (db) => deleteEvents(db, 'session-a', [9]), expected: [['missing', 'session-a@9']] },
  {
    name: 'the last 5 events of a stream deleted',
    edit: (db) => deleteEvents(db, 'session-a', [5, 6, 7, 8, 9]),
    expected: [5, 6, 7, 8, 9].map((revision) => ['missing', `session-a@${revision}`] as [BreakKind, string]),
  },
  { name: 'the first events of a stream deleted', edit: (db) => deleteEvents(db, 'session-b', [0, 1]), expected: [['missing', 'session-b@0'], ['missing', 'session-b@1']] },
  {
    name: 'a whole stream deleted, its streams row too',
    edit: (db) => {
      db.prepare(`DELETE FROM events WHERE stream = 'session-c'`).run();
      db.prepare(`DELETE FROM streams WHERE name = 'session-c'`).run();
    },
    expected: [['missing', 'session-c@0'], ['missing', 'session-c@1'], ['missing', 'session-c@2']],
  },
  { name: 'first_live raised so 6 events vanish from reads', edit: (db) => db.prepare(`UPDATE streams SET first_live = 6 WHERE name = 'session-a'`).run(), expected: [['hidden', 'session-a@5']] },
  {
    name: 'positions swapped across streams',
    edit: (db) => {
      const a = positionOf(db, 'session-a', 3);
      const b = positionOf(db, 'session-b', 3);
      db.prepare('UPDATE events SET position = -1 WHERE position = ?').run(a);
      db.prepare('UPDATE events SET position = ? WHERE position = ?').run(a, b);
      db.prepare('UPDATE events SET position = ? WHERE position = -1').run(b);
    },
    expected: [['position', 'session-a@3'], ['position', 'session-b@3']],
  },
  { name: 'created edited', edit: (db) => db.prepare(`UPDATE events SET created = '2020-01-01T00:00:00.000Z' WHERE stream = 'session-b' AND revision = 4`).run(), expected: [['leaf', 'session-b@4']] },
  {
    name: 'a message edited and the chain recomputed',
    edit: (db) => {
      editData(db, 'session-a', 4, (data) => ({ ...data, text: 'a never said this' }));
      rechain(db, 'session-a');
    },
    expected: [['leaf', 'session-a@4']],
  },
  {
    name: 'a forged event appended with a valid chain',
    edit: (db) => {
      const head = JSON.parse((db.prepare(`SELECT metadata FROM events WHERE stream = 'session-c' AND revision = 2`).get() as { metadata: string }).metadata) as JsonObject;
      const id = newId();
      const metadata: JsonObject = { [PREV_HASH]: head[HASH]! };
      const hash = chainHash({ stream: 'session-c', revision: 3n, id, type: 'message', data: { n: 3 }, metadata });
      db.prepare(`INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES ('session-c', 3, ?, 'message', '{"n":3}', ?, ?)`).run(
        id,
        JSON.stringify({ ...metadata, [HASH]: hash }),
        new Date().toISOString(),
      );
    },
    expected: [['stray', 'session-c@3']],
  },
  {
    name: 'an event cut from the middle and the rest renumbered and rechained',
    edit: (db) => {
      deleteEvents(db, 'session-b', [5]);
      for (let revision = 6; revision < 10; revision += 1) db.prepare(`UPDATE events SET revision = ? WHERE stream = 'session-b' AND revision = ?`).run(revision - 1, revision);
      rechain(db, 'session-b');
    },
    expected: [['missing', 'session-b@5'], ['position', 'session-b@6'], ['position', 'session-b@9']],
  },
  // Caught by the chains already; pinned here against the log's verify.
  { name: 'one data byte edited', edit: (db) => editData(db, 'session-a', 2, (data) => ({ ...data, n: 7 })), expected: [['hash', 'session-a@2'], ['leaf', 'session-a@2']] },
  { name: 'the type edited', edit: (db) => db.prepare(`UPDATE events SET type = 'forged' WHERE stream = 'session-a' AND revision = 1`).run(), expected: [['hash', 'session-a@1']] },
  { name: 'the id edited', edit: (db) => db.prepare(`UPDATE events SET id = ? WHERE stream = 'session-b' AND revision = 2`).run(newId()), expected: [['hash', 'session-b@2']] },
  { name: 'a metadata key added', edit: (db) => editMetadata(db, 'session-b', 6, (metadata) => ({ ...metadata, actor: 'mallory' })), expected: [['hash', 'session-b@6']] },
  { name: 'the stored hash edited', edit: (db) => editMetadata(db, 'session-a', 7, (metadata) => ({ ...metadata, [HASH]: '0'.repeat(64) })), expected: [['hash', 'session-a@7']] },
  { name: 'the prevHash edited', edit: (db) => editMetadata(db, 'session-a', 8, (metadata) => ({ ...metadata, [PREV_HASH]: '0'.repeat(64) })), expected: [['hash', 'session-a@8']] },
  {
    name: 'two revisions of a stream swapped',
    edit: (db) => {
      db.prepare(`UPDATE events SET revision = -1 WHERE stream = 'session-a' AND revision = 5`).run();
      db.prepare(`UPDATE events SET revision = 5 WHERE stream = 'session-a' AND revision = 6`).run();
      db.prepare(`UPDATE events SET revision = 6 WHERE stream = 'session-a' AND revision = -1`).run();
    },
    expected: [['position', 'session-a@5'], ['position', 'session-a@6']],
  },
  { name: 'an event moved to another stream', edit: (db) => db.prepare(`UPDATE events SET stream = 'session-z' WHERE stream = 'session-b' AND revision = 8`).run(), expected: [['position', 'session-b@8']] },
  { name: 'an event deleted from the middle', edit: (db) => deleteEvents(db, 'session-a', [3]), expected: [['missing', 'session-a@3']] },
  {
    name: 'an event duplicated at the end of another stream',
    edit: (db) =>
      db.prepare(`INSERT INTO events (stream, revision, id, type, data, metadata, created) SELECT 'session-c', 3, id, type, data, metadata, created FROM events WHERE stream = 'session-a' AND revision = 0`).run(),
    expected: [['stray', 'session-c@3']],
  },
  { name: 'stored JSON made invalid by a byte edit', edit: (db) => db.prepare(`UPDATE events SET data = '{"n":4,"text":"b says' || char(1) || '"}' WHERE stream = 'session-b' AND revision = 4`).run(), expected: [['json', 'session-b@4']] },
];

describe('the log commitment catches every tamper case of issue 13 on a SQLite ledger', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('tamper13');
  });
  afterEach(() => temp.remove());

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

  it('a real deletion\'s record edited (its head raised to hide more) no longer matches its leaf', async () => {
    await writeLedger(temp.file);
    const store = openSqliteStore(temp.file);
    await store.deleteStream('session-c');
    await store.close();
    tamper(temp.file, (db) => db.prepare(`UPDATE log_deletions SET head_revision = 5 WHERE stream = 'session-c'`).run());
    const reopened = openSqliteStore(temp.file);
    const report = await verifyLog(reopened);
    await reopened.close();
    expect(report.breaks.map((item) => item.kind)).toEqual(expect.arrayContaining(['leaf']));
    expect(report.ok).toBe(false);
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
