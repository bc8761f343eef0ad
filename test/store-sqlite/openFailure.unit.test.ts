import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

/** The folder's writability as the store sees it: EROFS (a read-only mount), EACCES, or writable. */
const folder = vi.hoisted(() => ({ code: null as string | null }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    accessSync: (path: string, mode?: number) => {
      if (folder.code !== null) throw Object.assign(new Error(`${folder.code}: ${path}`), { code: folder.code });
      return actual.accessSync(path, mode);
    },
  };
});

const { openFailure } = await import('../../packages/store-sqlite/src/openFailure.js');

/**
 * A ledger on read-only media (a mounted backup, an auditor's copy) could not be opened, and the
 * message was SQLite's bare "unable to open database file" (outside test, session 24). A real
 * read-only mount needs privileges a test run may lack (checked by hand with a read-only bind mount:
 * every command exits 4 with this message); here the folder's answer is forced.
 */
describe('the message of a ledger that cannot be opened', () => {
  const ledger = () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sl-open-')), 'ledger.sqlite');
    writeFileSync(path, '');
    return path;
  };
  const cantOpen = Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });

  it('on a read-only file system: says so, names the -wal and -shm files SQLite must create, and what to do', () => {
    const path = ledger();
    folder.code = 'EROFS';
    expect(openFailure(path, cantOpen)).toBe(
      `Cannot open ledger at ${path}: unable to open database file; its folder is on a read-only file system, and SQLite reads a WAL-mode ledger through ${JSON.stringify(`${path}-wal`)} and ${JSON.stringify(`${path}-shm`)} files it creates there: copy the ledger (with its -wal file, if any) to a writable folder and read the copy`,
    );
    folder.code = 'EACCES';
    expect(openFailure(path, cantOpen)).toContain('its folder is not writable by this user');
  });

  it('a writable folder, or no file there: SQLite\'s message alone', () => {
    folder.code = null;
    const path = ledger();
    expect(openFailure(path, cantOpen)).toBe(`Cannot open ledger at ${path}: unable to open database file`);
    folder.code = 'EROFS';
    expect(openFailure(join(tmpdir(), 'sl-no-such-folder', 'ledger.sqlite'), cantOpen)).toBe(`Cannot open ledger at ${join(tmpdir(), 'sl-no-such-folder', 'ledger.sqlite')}: unable to open database file`);
    // another failure is not blamed on the folder
    const path2 = ledger();
    expect(openFailure(path2, Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' }))).toBe(`Cannot open ledger at ${path2}: file is not a database`);
  });

  it('is what openSqliteStore throws (store_unavailable, exit 4)', async () => {
    const { openSqliteStore } = await import('@session-ledger/store-sqlite');
    const path = ledger();
    folder.code = null;
    await openSqliteStore(path).close();
    // SQLite cannot use the -shm file (a folder stands there), as it cannot on a read-only mount
    mkdirSync(`${path}-shm`);
    folder.code = 'EROFS';
    expect(() => openSqliteStore(path)).toThrow(expect.objectContaining({ type: 'store_unavailable', message: expect.stringContaining('its folder is on a read-only file system') }));
  });

  it('a ledger this user cannot write, with no -shm beside it, is refused before SQLite leaves files its owner could not write (outside test, session 25)', async () => {
    const { openSqliteStore } = await import('@session-ledger/store-sqlite');
    const path = ledger();
    folder.code = null;
    await openSqliteStore(path).close();
    expect(existsSync(`${path}-shm`)).toBe(false);
    folder.code = 'EACCES';
    expect(() => openSqliteStore(path, { create: false })).toThrow(
      expect.objectContaining({ type: 'store_unavailable', message: expect.stringContaining('this user cannot write it, and reading it would leave') }),
    );
    // before: the reader's open left them, owned by the reader; the owner's next append failed
    expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([false, false]);
    folder.code = null;
  });
});
