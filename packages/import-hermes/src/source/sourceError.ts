import { ledgerError, type ErrorDetails, type LedgerError } from '@session-ledger/core';

export type SourceProblem = ErrorDetails['import_source_invalid']['reason'];

const MESSAGES: Record<SourceProblem, string> = {
  not_found: 'no such file',
  not_sqlite: 'not a SQLite database',
  not_hermes: 'not a Hermes state.db',
  corrupt: 'the database is corrupt',
  locked: 'the database is locked by another process',
  unreadable: 'cannot be read',
};

export const sourceError = (path: string, reason: SourceProblem, detail?: string): LedgerError<'import_source_invalid'> =>
  ledgerError('import_source_invalid', `Cannot import ${path}: ${MESSAGES[reason]}${detail ? ` (${detail})` : ''}`, {
    path,
    reason,
  });

/** SQLite's error codes mapped to what the user can act on. */
export const classifySqliteError = (path: string, error: unknown): LedgerError<'import_source_invalid'> => {
  const code = String((error as { code?: unknown }).code ?? '');
  const message = (error as Error).message ?? String(error);
  if (code === 'SQLITE_NOTADB') return sourceError(path, 'not_sqlite');
  if (code.startsWith('SQLITE_CORRUPT')) return sourceError(path, 'corrupt', message);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return sourceError(path, 'locked', message);
  if (code === 'SQLITE_READONLY_ROLLBACK' || code === 'SQLITE_READONLY_RECOVERY') {
    return sourceError(path, 'locked', 'a writer left a journal that needs recovery; open Hermes once or copy the file');
  }
  if (code === 'SQLITE_CANTOPEN') return sourceError(path, 'unreadable', message);
  return sourceError(path, 'unreadable', `${code || 'error'}: ${message}`);
};
