import type Database from 'better-sqlite3';

/** Where a read model stands in its file: the schema version it was built with and the last event folded in. */
export type ReadModelStatus = 'ok' | 'rebuilding' | 'faulted';

export interface ReadModelMeta {
  name: string;
  version: number;
  /** Commit position of the last event applied; -1 before the first. */
  position: bigint;
  status: ReadModelStatus;
  /** Why the model is faulted (the projection's error), else null. */
  error: string | null;
}

const CREATE = `CREATE TABLE IF NOT EXISTS read_models (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  position INTEGER NOT NULL,
  status TEXT NOT NULL,
  error TEXT
) WITHOUT ROWID`;

interface Row {
  name: string;
  version: bigint;
  position: bigint;
  status: ReadModelStatus;
  error: string | null;
}

const toMeta = (row: Row): ReadModelMeta => ({ name: row.name, version: Number(row.version), position: row.position, status: row.status, error: row.error });

/** The `read_models` table: one row per read model kept in the file. */
export const metaTable = (db: Database.Database) => {
  db.exec(CREATE);
  const get = db.prepare('SELECT name, version, position, status, error FROM read_models WHERE name = ?').safeIntegers(true);
  const all = db.prepare('SELECT name, version, position, status, error FROM read_models ORDER BY name').safeIntegers(true);
  const put = db.prepare(
    `INSERT INTO read_models (name, version, position, status, error) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position, status = excluded.status, error = excluded.error`,
  );
  const advance = db.prepare('UPDATE read_models SET position = ? WHERE name = ?');
  return {
    get: (name: string): ReadModelMeta | undefined => {
      const row = get.get(name) as Row | undefined;
      return row ? toMeta(row) : undefined;
    },
    all: (): ReadModelMeta[] => (all.all() as Row[]).map(toMeta),
    put: (meta: ReadModelMeta): void => {
      put.run(meta.name, meta.version, meta.position, meta.status, meta.error);
    },
    advance: (name: string, position: bigint): void => {
      advance.run(position, name);
    },
  };
};

export type MetaTable = ReturnType<typeof metaTable>;
