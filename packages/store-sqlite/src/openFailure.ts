import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';

/** Why the folder cannot take SQLite's `-wal` and `-shm` files, or null when it can (or the path is not a file). */
const unwritableFolder = (path: string): string | null => {
  if (path === ':memory:' || !existsSync(path)) return null;
  try {
    accessSync(dirname(path), constants.W_OK);
    return null;
  } catch (error) {
    return (error as { code?: string }).code === 'EROFS' ? 'on a read-only file system' : 'not writable by this user';
  }
};

/**
 * The message of a ledger that cannot be opened. A ledger on read-only media (a mounted backup, an
 * auditor's copy) failed with SQLite's bare "unable to open database file": a WAL-mode file is read
 * through `-wal` and `-shm` files beside it, which SQLite must be able to create, and better-sqlite3
 * offers no `immutable` open. The message now says so and what to do (outside test, session 24).
 */
export const openFailure = (path: string, error: Error & { code?: string }): string => {
  // CANTOPEN: SQLite could not create `-shm`; READONLY: it exists and cannot be written.
  const folder = error.code === 'SQLITE_CANTOPEN' || error.code?.startsWith('SQLITE_READONLY') ? unwritableFolder(path) : null;
  const hint = folder === null
    ? ''
    : `; its folder is ${folder}, and SQLite reads a WAL-mode ledger through ${JSON.stringify(`${path}-wal`)} and ${JSON.stringify(`${path}-shm`)} files it creates there: copy the ledger (with its -wal file, if any) to a writable folder and read the copy`;
  return `Cannot open ledger at ${path}: ${error.message}${hint}`;
};
