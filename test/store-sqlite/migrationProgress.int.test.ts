import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyLog } from '@session-ledger/core';
import { openSqliteStore, SCHEMA_VERSION } from '@session-ledger/store-sqlite';
import { tempLedger } from './tempLedger.js';
import { versionFourFile } from './versionFourFile.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MORE = 45_000; // three pages of the rebuild's copy (20,000 rows a page)

/** Every row of the events table as the file holds it, in position order. */
const rows = (file: string): unknown[] => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT position, stream, revision, id, type, data, metadata, created FROM events ORDER BY position').raw().all();
  } finally {
    db.close();
  }
};

const versionOf = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

describe('a migration that reads every event tells how far it is', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('migration');
    versionFourFile(temp.file, MORE);
  });
  afterEach(() => temp.remove());

  it('schema 5 copies the events in pages, reporting each up to the total, with every row unchanged', async () => {
    const before = rows(temp.file);
    const seen: Array<[number, number, number]> = [];
    const store = openSqliteStore(temp.file, { onMigration: (version, done, total) => seen.push([version, done, total]) });
    const events = 3 + MORE;
    expect(seen).toEqual([
      [5, 20_000, events],
      [5, 40_000, events],
      [5, events, events],
    ]);
    expect(rows(temp.file)).toEqual(before);
    expect((await verifyLog(store)).breaks.filter((item) => item.kind !== 'hash' && item.kind !== 'prev')).toEqual([]);
    await store.close();
  });

  it('a kill -9 between two pages of the copy leaves the version 4 file whole, and the next open migrates it', async () => {
    const before = rows(temp.file);
    const killer = `import { openSqliteStore } from '@session-ledger/store-sqlite';
      openSqliteStore(process.argv[1], { onMigration: (version, done) => { if (version === 5 && done >= 20000) process.kill(process.pid, 'SIGKILL'); } });`;
    let signal: string | null = null;
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', killer, temp.file], { cwd: ROOT, stdio: 'pipe' });
    } catch (error) {
      signal = (error as { signal: string | null }).signal;
    }
    expect(signal).toBe('SIGKILL');
    expect(versionOf(temp.file)).toBe(4);
    expect(rows(temp.file)).toEqual(before);

    const store = openSqliteStore(temp.file);
    await store.close();
    expect(versionOf(temp.file)).toBe(SCHEMA_VERSION);
    expect(rows(temp.file)).toEqual(before);
  });
});
