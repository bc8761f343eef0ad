import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { EventStore } from '@session-ledger/core';
import { openSqliteStore, type SqliteStoreOptions } from '@session-ledger/store-sqlite';

/** A fresh directory for one test's ledger file; `remove` deletes it. */
export const tempLedger = (label = 'ledger') => {
  const dir = mkdtempSync(join(tmpdir(), `session-ledger-${label}-`));
  return { dir, file: join(dir, 'ledger.sqlite'), remove: () => rmSync(dir, { recursive: true, force: true }) };
};

/**
 * Opens SQLite stores on fresh temporary ledger files, or again on one of them (a second connection),
 * and closes and removes them all after each test of the suite that calls it.
 */
export const storesOnTempFiles = (label: string) => {
  const temps: Array<ReturnType<typeof tempLedger>> = [];
  const stores: EventStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const temp of temps.splice(0)) temp.remove();
  });
  return (file?: string, options: SqliteStoreOptions = {}) => {
    if (!file) {
      const temp = tempLedger(label);
      temps.push(temp);
      file = temp.file;
    }
    const store = openSqliteStore(file, options);
    stores.push(store);
    return { store, file };
  };
};
