import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { classifySqliteError, sourceError } from './sourceError.js';

export interface OpenSourceOptions {
  /** How long to wait for a writer's lock (rollback-journal files only). Default 5000 ms. */
  busyTimeoutMs?: number;
}

/**
 * Opens a state.db strictly read-only. Nothing is ever written to the file; SQLite itself may create
 * the `-wal`/`-shm` sidecars of a WAL file that has none, exactly as any reader of that file does.
 */
export const openSource = (path: string, options: OpenSourceOptions = {}): Database.Database => {
  if (!existsSync(path)) throw sourceError(path, 'not_found');
  if (!statSync(path).isFile()) throw sourceError(path, 'unreadable', 'not a regular file');
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: options.busyTimeoutMs ?? 5000 });
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    if (db?.open) db.close();
    throw classifySqliteError(path, error);
  }
};
