import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { storeUnavailable } from '@session-ledger/core';

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

/**
 * A ledger this user cannot write, with no `-shm` beside it yet, is refused before SQLite opens it:
 * reading it (an auditor's `audit verify` as another user, in a shared folder) created `-wal` and
 * `-shm` files owned by the reader, and the owner's next append failed with "attempt to write a
 * readonly database" until someone removed them (outside test, session 25). With a `-shm` there,
 * SQLite reads through it without creating anything.
 */
export const refuseForeignReader = (path: string): void => {
  if (path === ':memory:' || !existsSync(path) || existsSync(`${path}-shm`)) return;
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    // Read-only media: SQLite cannot create them either, and the open fails saying so (openFailure).
    if ((error as { code?: string }).code === 'EROFS') return;
    throw storeUnavailable(
      `Cannot open ledger at ${path}: this user cannot write it, and reading it would leave ${JSON.stringify(`${path}-wal`)} and ${JSON.stringify(`${path}-shm`)} files its owner could not write: read it as its owner, or copy it and read the copy`,
      'EACCES',
    );
  }
};
