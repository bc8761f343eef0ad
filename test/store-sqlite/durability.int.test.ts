import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore, type SqliteStoreOptions } from '@session-ledger/store-sqlite';
import { tempLedger } from './tempLedger.js';

/** Opens a store and returns the connection it opened, captured as it sets its pragmas. */
const openCapturing = (file: string, options?: SqliteStoreOptions) => {
  let connection: Database.Database | undefined;
  const original = Database.prototype.pragma;
  const spy = vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (this: Database.Database, ...args) {
    if ((this as { name?: string }).name === file) connection ??= this;
    return original.apply(this, args as Parameters<typeof original>);
  });
  try {
    const store = openSqliteStore(file, options);
    return { store, connection: connection! };
  } finally {
    spy.mockRestore();
  }
};

describe('SQLite durability setting', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('durability');
  });
  afterEach(() => temp.remove());

  it('defaults to WAL with synchronous=NORMAL', async () => {
    const { store, connection } = openCapturing(temp.file);
    expect(connection.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(connection.pragma('synchronous', { simple: true })).toBe(1);
    await store.close();
  });

  it("durability: 'full' sets synchronous=FULL, so every commit is fsynced", async () => {
    const { store, connection } = openCapturing(temp.file, { durability: 'full' });
    expect(connection.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(connection.pragma('synchronous', { simple: true })).toBe(2);
    await store.close();
  });

  it('sets secure_delete, so erased events are overwritten', async () => {
    const { store, connection } = openCapturing(temp.file);
    expect(connection.pragma('secure_delete', { simple: true })).toBe(1);
    await store.close();
  });
});
