import { isLedgerError, storeUnavailable } from '@session-ledger/core';

const TRANSIENT = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_IOERR', 'SQLITE_PROTOCOL']);

/** SQLite's errors mapped into the ledger's family: transient ones become store_unavailable (retried). */
export const mapSqliteError = (error: unknown): unknown => {
  if (isLedgerError(error)) return error;
  const code = (error as { code?: string }).code;
  if (typeof code === 'string' && (TRANSIENT.has(code) || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_BUSY'))) {
    return storeUnavailable(`SQLite is busy or failed to read: ${(error as Error).message}`, code);
  }
  // A table or column the store's schema has was dropped behind its back: the file is damaged, not the code.
  if (code === 'SQLITE_ERROR' && /^no such (table|column)/.test((error as Error).message)) {
    return storeUnavailable(`The ledger file is damaged: ${(error as Error).message}`, 'LEDGER_DAMAGED');
  }
  // A full disk (or quota) refuses the commit: nothing of it is stored; the CLI said "internal error" (outside test, session 24).
  if (code === 'SQLITE_FULL') return storeUnavailable(`The disk holding the ledger is full: ${(error as Error).message}`, code);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return storeUnavailable(`Not a usable SQLite file: ${(error as Error).message}`, code);
  }
  return error;
};

export const mapped = <T>(operation: () => T): T => {
  try {
    return operation();
  } catch (error) {
    throw mapSqliteError(error);
  }
};
