import Database from 'better-sqlite3';

/**
 * The ceiling: the same rows in a table shaped like the store's, written and read with plain
 * better-sqlite3 statements and nothing else (no expected-revision check, no hash chain).
 */
export interface PlainSqlite {
  insertBatch(stream: string, firstRevision: number, events: Array<{ id: string; type: string; data: unknown }>): void;
  readAll(pageSize: number): number;
  close(): void;
}

/**
 * `bare`: the events table alone, with its (stream, revision) key and SQLite's own rowid: no id
 * index (its trigger) and no AUTOINCREMENT (its sqlite_sequence page), the fewest pages an event
 * row with a stream key can write.
 */
export const openPlain = (file: string, synchronous: 'NORMAL' | 'FULL', bare = false): PlainSqlite => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(
    bare
      ? `CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, created TEXT NOT NULL,
    UNIQUE (stream, revision));`
      : `CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, created TEXT NOT NULL,
    UNIQUE (stream, revision));
    CREATE TABLE IF NOT EXISTS event_ids (stream TEXT NOT NULL, id TEXT NOT NULL, revision INTEGER NOT NULL,
      PRIMARY KEY (stream, id, revision)) WITHOUT ROWID;
    CREATE TRIGGER IF NOT EXISTS events_id_recorded AFTER INSERT ON events BEGIN
      INSERT INTO event_ids (stream, id, revision) VALUES (new.stream, new.id, new.revision);
    END;`,
  );
  const insert = db.prepare('INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const page = db.prepare('SELECT position, stream, revision, id, type, data, metadata, created FROM events WHERE position >= ? ORDER BY position LIMIT ?');
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  return {
    /** Inserts the rows in one transaction. */
    insertBatch(stream: string, firstRevision: number, events: Array<{ id: string; type: string; data: unknown }>) {
      begin.run();
      const created = new Date().toISOString();
      events.forEach((event, index) =>
        insert.run(stream, firstRevision + index, event.id, event.type, JSON.stringify(event.data), '{}', created),
      );
      commit.run();
    },
    /** Pages through the whole table and parses every row's JSON; returns the number of rows. */
    readAll(pageSize: number): number {
      let count = 0;
      let from = 0;
      for (;;) {
        const rows = page.all(from, pageSize) as Array<{ position: number; data: string; metadata: string }>;
        for (const row of rows) {
          const event = { ...row, data: JSON.parse(row.data) as unknown, metadata: JSON.parse(row.metadata) as unknown };
          if (event.position < 0) throw new Error('unreachable');
        }
        count += rows.length;
        if (rows.length < pageSize) return count;
        from = rows[rows.length - 1]!.position + 1;
      }
    },
    close: (): void => void db.close(),
  };
};
