import type Database from 'better-sqlite3';

/**
 * Two tables. `catalog_segments`: what each segment's own events say (one row per segment stream,
 * the segment→root mapping in `root_id`). `catalog`: one row per logical conversation, recomputed
 * from its segments' rows whenever one of them changes, keyed for the keyset cursor on
 * (last_ms DESC, root_id). Liveness is stored as the latest turn's lease expiry (`live_until`, ms)
 * and judged when read, so nothing here depends on a clock.
 */
export const CATALOG_TABLES = `
CREATE TABLE IF NOT EXISTS catalog_segments (
  id TEXT PRIMARY KEY,
  started INTEGER NOT NULL DEFAULT 0,
  parent_id TEXT,
  link TEXT,
  continued_in TEXT,
  title TEXT,
  source TEXT,
  model TEXT,
  messages INTEGER NOT NULL DEFAULT 0,
  first_activity TEXT,
  last_activity TEXT,
  ended INTEGER NOT NULL DEFAULT 0,
  turn TEXT,
  root_id TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS catalog_segments_root ON catalog_segments (root_id);
CREATE INDEX IF NOT EXISTS catalog_segments_parent ON catalog_segments (parent_id);
CREATE TABLE IF NOT EXISTS catalog (
  root_id TEXT PRIMARY KEY,
  tip_id TEXT NOT NULL,
  segments TEXT NOT NULL,
  title TEXT,
  source TEXT,
  model TEXT,
  messages INTEGER NOT NULL,
  first_activity TEXT,
  last_activity TEXT,
  last_ms INTEGER NOT NULL,
  live_until INTEGER,
  ended INTEGER NOT NULL,
  parent_id TEXT,
  link TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS catalog_recent ON catalog (last_ms DESC, root_id);
CREATE INDEX IF NOT EXISTS catalog_title ON catalog (title);
`;

export const createCatalog = (db: Database.Database): void => {
  db.exec(CATALOG_TABLES);
};

export const dropCatalog = (db: Database.Database): void => {
  db.exec('DROP TABLE IF EXISTS catalog; DROP TABLE IF EXISTS catalog_segments;');
};
