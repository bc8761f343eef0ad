import type Database from 'better-sqlite3';

/** Why an insert without a position is refused at version 5 (an older process's append, never stored). */
export const OLD_WRITER = 'session-ledger: this ledger file is at schema version 5 or later and every event names its position; this process is of an older version: restart it with the newer one';

/** Rows copied per statement: large enough to cost nothing over one copy, small enough for a bar to move. */
const PAGE = 20_000;

/**
 * Schema version 5's fill: copies `events` into `events_v5` (created by the migration's SQL) in
 * position order, a page at a time, then puts the new table in the old one's place with its triggers.
 * It runs inside the migration's one transaction: a kill -9 at any page leaves the version 4 file.
 */
export const rebuildEvents = (db: Database.Database, done: (events: number) => void): void => {
  const page = db.prepare(
    `INSERT INTO events_v5 (position, stream, revision, id, type, data, metadata, created)
     SELECT position, stream, revision, id, type, data, metadata, created FROM events WHERE position > ? ORDER BY position LIMIT ${PAGE}`,
  );
  const last = db.prepare('SELECT max(position) FROM events_v5').pluck().safeIntegers(true);
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  for (let after = -(2n ** 63n); ; ) {
    const copied = page.run(after).changes;
    if (copied === 0) break;
    done(copied);
    after = last.get() as bigint;
  }
  // Only the lowest int64 position could escape the pages' bound: say so rather than drop a row.
  if (count('events_v5') !== count('events')) throw new Error('schema 5: the events table could not be copied whole; the file is left at version 4');
  db.exec(`DROP TABLE events;
   ALTER TABLE events_v5 RENAME TO events;
   CREATE TRIGGER events_id_recorded AFTER INSERT ON events BEGIN
     INSERT INTO event_ids (stream, id, revision) VALUES (new.stream, new.id, new.revision);
   END;
   CREATE TRIGGER events_position_given BEFORE INSERT ON events WHEN new.position IS NULL OR new.position < 1 BEGIN
     SELECT RAISE(ABORT, '${OLD_WRITER}');
   END;`);
};
