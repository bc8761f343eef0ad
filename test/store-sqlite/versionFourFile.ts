import Database from 'better-sqlite3';
import { newId } from '@session-ledger/core';
import { buildLog } from '../../packages/store-sqlite/src/log/tables.js';
import { MIGRATIONS } from '../../packages/store-sqlite/src/schema.js';

/**
 * A version 4 file (the log, positions by AUTOINCREMENT) whose stream `gone` held the highest
 * positions (4 and 5; above them only the `more` events in 100 streams `more-N`, none by default)
 * and was soft-deleted before the file had a log, so no leaf holds them.
 */
export const versionFourFile = (file: string, more = 0): void => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const sql of MIGRATIONS.slice(0, 3)) db.exec(sql);
  const insert = db.prepare(`INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, 't', '{"n":1}', '{}', '2026-12-01T00:00:00.000Z')`);
  [0, 1, 2].forEach((revision) => insert.run('old', revision, newId()));
  [0, 1].forEach((revision) => insert.run('gone', revision, newId()));
  db.transaction(() => {
    for (let n = 0; n < more; n += 1) insert.run(`more-${n % 100}`, Math.floor(n / 100), newId());
  })();
  db.exec(`INSERT INTO streams (name, last_revision) SELECT stream, max(revision) FROM events WHERE stream LIKE 'more-%' GROUP BY stream`);
  db.exec(`INSERT INTO streams (name, last_revision, first_live, tombstoned) VALUES ('old', 2, 0, 0), ('gone', 1, 2, 0);
    DELETE FROM events WHERE stream = 'gone'; DELETE FROM event_ids WHERE stream = 'gone';`);
  db.exec(MIGRATIONS[3]!);
  buildLog(db);
  db.pragma('user_version = 4');
  db.close();
};
