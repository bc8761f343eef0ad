import type Database from 'better-sqlite3';
import * as E from 'fp-ts/lib/Either.js';
import type { LedgerError } from '@session-ledger/core';
import type { HermesSchema } from '../model.js';
import { MESSAGE_REQUIRED, SESSION_REQUIRED } from './columns.js';
import { sourceError } from './sourceError.js';

const columnsOf = (db: Database.Database, table: string): string[] =>
  (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((row) => row.name);

const tableExists = (db: Database.Database, table: string): boolean =>
  db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined;

const readVersion = (db: Database.Database): number | null => {
  if (!tableExists(db, 'schema_version')) return null;
  const row = db.prepare('SELECT max(version) AS v FROM schema_version').get() as { v: unknown } | undefined;
  const v = Number(row?.v);
  return row?.v === null || row?.v === undefined || !Number.isFinite(v) ? null : v;
};

/**
 * What this file's schema holds, detected with PRAGMA table_info (never from the version number alone:
 * Hermes adds columns lazily). Any version with `sessions` and `messages` and their key columns is accepted.
 */
export const describeSchema = (db: Database.Database, path: string): E.Either<LedgerError, HermesSchema> => {
  const sessionColumns = columnsOf(db, 'sessions');
  const messageColumns = columnsOf(db, 'messages');
  const missing = [
    ...SESSION_REQUIRED.filter((c) => !sessionColumns.includes(c)).map((c) => `sessions.${c}`),
    ...MESSAGE_REQUIRED.filter((c) => !messageColumns.includes(c)).map((c) => `messages.${c}`),
  ];
  if (sessionColumns.length === 0 || messageColumns.length === 0 || missing.length > 0) {
    const detail = sessionColumns.length === 0 || messageColumns.length === 0
      ? 'no sessions and messages tables'
      : `missing ${missing.join(', ')}`;
    return E.left(sourceError(path, 'not_hermes', detail));
  }
  return E.right({
    version: readVersion(db),
    sessionColumns,
    messageColumns,
    // Schema 14 added `active` (rewind) before schema 16 added `compacted` (in-place compaction).
    hasRowFlags: messageColumns.includes('active'),
  });
};
