import type Database from 'better-sqlite3';
import { chainHash, HASH, newId, PREV_HASH, type BreakKind, type JsonObject } from '@session-ledger/core';
import { editData, editMetadata, positionOf, rechain } from './tamperFixture.js';

export interface Case {
  name: string;
  edit: (db: Database.Database) => void;
  /** Breaks that must be among those reported: kind and stream@revision. */
  expected: Array<[BreakKind, string]>;
}

export const deleteEvents = (db: Database.Database, stream: string, revisions: number[]) => {
  for (const revision of revisions) db.prepare('DELETE FROM events WHERE stream = ? AND revision = ?').run(stream, revision);
};

/** The ten the per-stream chains miss (issue 13), one more the log caught only since positions are in the leaf, then the eleven they catch. */
export const CASES: Case[] = [
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
  { name: "a stream's state row deleted: reads answer not found", edit: (db) => db.prepare(`DELETE FROM streams WHERE name = 'session-b'`).run(), expected: [['hidden', 'session-b@9']] },
  { name: "a stream's last revision raised: every append refused", edit: (db) => db.prepare(`UPDATE streams SET last_revision = 100 WHERE name = 'session-c'`).run(), expected: [['hidden', 'session-c@100']] },
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
  {
    // Since schema version 7 a leaf commits to its event's position: moved in both tables, in order, it no longer hashes to its leaf.
    name: 'positions shifted in order, in events and log_leaves alike',
    edit: (db) => {
      for (const table of ['events', 'log_leaves']) db.prepare(`UPDATE ${table} SET position = position + 1000 WHERE position > ?`).run(positionOf(db, 'session-b', 9));
    },
    expected: [['leaf', 'session-c@0'], ['leaf', 'session-c@1'], ['leaf', 'session-c@2']],
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
      db.prepare(`INSERT INTO events (position, stream, revision, id, type, data, metadata, created) VALUES ((SELECT max(position) + 1 FROM events), 'session-c', 3, ?, 'message', '{"n":3}', ?, ?)`).run(
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
      db.prepare(`INSERT INTO events (position, stream, revision, id, type, data, metadata, created) SELECT (SELECT max(position) + 1 FROM events), 'session-c', 3, id, type, data, metadata, created FROM events WHERE stream = 'session-a' AND revision = 0`).run(),
    expected: [['stray', 'session-c@3']],
  },
  { name: 'stored JSON made invalid by a byte edit', edit: (db) => db.prepare(`UPDATE events SET data = '{"n":4,"text":"b says' || char(1) || '"}' WHERE stream = 'session-b' AND revision = 4`).run(), expected: [['json', 'session-b@4']] },
  // Outside test, session 26: a number past a double parses to Infinity, which no ledger value holds; verify stopped
  // with "Not a JSON number: Infinity" (exit 2), naming no event and listing no other break.
  {
    name: 'a stored number edited past a double (1e400, -1e400), beside another edit',
    edit: (db) => {
      db.prepare(`UPDATE events SET data = '{"n":1e400}' WHERE stream = 'session-a' AND revision = 4`).run();
      db.prepare(`UPDATE events SET data = '{"n":[-1e400]}' WHERE stream = 'session-c' AND revision = 2`).run();
      deleteEvents(db, 'session-b', [5]);
    },
    expected: [['json', 'session-a@4'], ['missing', 'session-b@5'], ['json', 'session-c@2']],
  },
];

