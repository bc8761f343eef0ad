import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { activeHistory, displayHistory, openHermesSource, readSnapshot } from '@session-ledger/import-hermes';
import { createMemoryStore, isLedgerError } from '@session-ledger/core';
import { importHermes } from '@session-ledger/import-hermes';
import { createHermesDb, type HermesFixture } from './fixtures/hermesDb.js';
import { buildCurrentEra, buildV2Era, tempDir, UNICODE_TEXT } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

const reason = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return isLedgerError(error, 'import_source_invalid') ? error.details.reason : `other: ${String(error)}`;
  }
  return undefined;
};

describe('reading a Hermes state.db', () => {
  it('reads a current-era file: 61 and 26 columns, flags, unknown columns kept', () => {
    const path = join(tempDir(), 'state.db');
    open.push(buildCurrentEra(path));
    const snap = readSnapshot(path);
    expect(snap.schema).toMatchObject({ version: 30, hasRowFlags: true });
    expect(snap.schema.sessionColumns).toHaveLength(61);
    expect(snap.schema.messageColumns).toHaveLength(26);
    const root = snap.sessions.find((s) => s.id === '20260424_143733_1abb38')!;
    expect(root.extra).toMatchObject({ cwd: '/work/app', git_branch: 'main' });
    const rows = snap.messages.get('rewound')!;
    expect(rows.find((m) => m.content === 'Sure.')!.extra).toMatchObject({ platform_message_id: 'tg-42', display_kind: 'plain' });
    expect(snap.messages.get('20260424_145134_bba836')!.some((m) => m.content === UNICODE_TEXT)).toBe(true);
  });

  it('reads a version-2 file (14 and 10 columns, no flags): every row active and displayed', () => {
    const path = join(tempDir(), 'state.db');
    open.push(buildV2Era(path));
    const snap = readSnapshot(path);
    expect(snap.schema).toMatchObject({ version: 2, hasRowFlags: false });
    expect(snap.schema.sessionColumns).toHaveLength(14);
    expect(snap.schema.messageColumns).toHaveLength(10);
    const rows = snap.messages.get('old-1')!;
    expect(rows.every((m) => m.state === 'active')).toBe(true);
    expect(displayHistory(rows)).toHaveLength(8);
    expect(snap.sessions.find((s) => s.id === 'old-3')!.title).toBeNull();
  });

  it('orders parents before children and keeps message order by row id', () => {
    const path = join(tempDir(), 'state.db');
    open.push(buildCurrentEra(path));
    const snap = readSnapshot(path);
    const ids = snap.sessions.map((s) => s.id);
    expect(ids.indexOf('20260424_143733_1abb38')).toBeLessThan(ids.indexOf('20260424_144905_134d65'));
    for (const rows of snap.messages.values()) {
      expect(rows.map((m) => m.rowId)).toEqual([...rows.map((m) => m.rowId)].sort((a, b) => a - b));
    }
  });

  it('computes display (active or compacted) and active views as Hermes does', () => {
    const path = join(tempDir(), 'state.db');
    open.push(buildCurrentEra(path));
    const rows = readSnapshot(path).messages.get('inplace')!;
    const display = displayHistory(rows);
    const active = activeHistory(rows);
    // 3 turns (12 rows) + summary + 2 carried copies + 1 turn + summary + 1 turn; no row twice.
    expect(display.map((m) => m.content)).toContain('[CONTEXT COMPACTION] Summary of a0..a2');
    expect(new Set(display.map((m) => m.rowId)).size).toBe(display.length);
    expect(active[0]!.content).toBe('[CONTEXT COMPACTION] Summary of everything so far');
    expect(active).toHaveLength(5);
    expect(display).toHaveLength(12 + 1 + 4 + 1 + 4);
  });

  it('collapses legacy carried-tail duplicates to one logical message at its live copy, as Hermes e89532d reads them', () => {
    const path = join(tempDir(), 'state.db');
    const h = createHermesDb(path, 'current');
    open.push(h);
    h.session({ id: 's' });
    h.turns('s', 2);
    h.compactInPlace('s', 'summary', 2, true);
    const rows = readSnapshot(path).messages.get('s')!;
    const display = displayHistory(rows);
    // get_messages(include_compacted=True): the row with the highest (active, id) of each message, in id order.
    expect(display.map((m) => m.rowId)).toEqual([1, 2, 3, 4, 5, 6, 9, 10, 11]);
    expect(activeHistory(rows).map((m) => m.content)).toEqual(['summary', '# README 1', 'It is a README (1).']);
    expect(display.slice(-3).map((m) => m.content)).toEqual(['summary', '# README 1', 'It is a README (1).']);
  });
});

describe('a session id that is not UTF-8', () => {
  it('is skipped with its rows counted: they are read by the id as stored, not as it reads back (outside test, session 30)', async () => {
    const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
    open.push(h);
    h.session({ id: 'plain', title: 'kept' });
    h.turns('plain', 1, 'p');
    h.session({ id: 'bytes', title: 'an id of bytes' });
    h.turns('bytes', 2, 'b');
    const rows = (h.db.prepare("SELECT count(*) AS n FROM messages WHERE session_id = 'bytes'").get() as { n: number }).n;
    h.db.pragma('foreign_keys = OFF');
    // b, 0xFF, a: no UTF-8; SQLite keeps the bytes, better-sqlite3 reads them back as "b\uFFFDa".
    h.db.prepare("UPDATE sessions SET id = CAST(X'62ff61' AS TEXT) WHERE id = 'bytes'").run();
    h.db.prepare("UPDATE messages SET session_id = CAST(X'62ff61' AS TEXT) WHERE session_id = 'bytes'").run();
    const report = await importHermes(createMemoryStore(), { path: h.path });
    expect(report.skipped).toEqual([{ session: 'b\uFFFDa', rows, reason: 'session id is not a valid ledger id (letters, digits, _ - . :)' }]);
    expect(rows).toBeGreaterThan(0);
    expect(report.sessions).toBe(1);
  });
});

describe('refusing what is not a readable Hermes state.db', () => {
  it('says so for a missing file, a non-SQLite file, a SQLite file of another program, and a corrupt file', () => {
    const dir = tempDir();
    expect(reason(() => readSnapshot(join(dir, 'missing.db')))).toBe('not_found');
    writeFileSync(join(dir, 'junk.db'), 'this is plainly not a database '.repeat(40));
    expect(reason(() => readSnapshot(join(dir, 'junk.db')))).toBe('not_sqlite');
    const other = new Database(join(dir, 'other.db'));
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    other.close();
    expect(reason(() => readSnapshot(join(dir, 'other.db')))).toBe('not_hermes');
    const path = join(dir, 'state.db');
    const h = buildCurrentEra(path);
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    h.close();
    const bytes = readFileSync(path);
    bytes.fill(0x5a, 4096 * 2, bytes.length);
    const broken = join(dir, 'broken.db');
    writeFileSync(broken, bytes);
    expect(['corrupt', 'not_sqlite']).toContain(reason(() => readSnapshot(broken)));
  });

  it('a file corrupt deep inside (met while reading its rows) is refused as corrupt, not an internal error (outside test, session 24)', () => {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    const h = buildCurrentEra(path);
    for (let session = 0; session < 40; session += 1) {
      h.session({ id: `bulk-${session}`, title: `bulk ${session}` });
      h.turns(`bulk-${session}`, 30, 'x'.repeat(300));
    }
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    h.close();
    const bytes = readFileSync(path);
    const at = Math.floor((bytes.length * 0.9) / 4096) * 4096;
    bytes.fill(0x5a, at, at + 8192);
    const broken = join(dir, 'broken.db');
    writeFileSync(broken, bytes);
    // before, closing the corrupt file (COMMIT of the read transaction) threw SQLite's own error over the refusal
    expect(reason(() => {
      const source = openHermesSource(broken);
      try {
        for (const _unit of source.units()) void _unit;
      } finally {
        source.close();
      }
    })).toBe('corrupt');
  });

  it('reports a rollback-journal file locked by a writer as locked', () => {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    const h = buildV2Era(path);
    open.push(h);
    h.db.exec('BEGIN EXCLUSIVE');
    h.db.prepare("INSERT INTO sessions (id, source, started_at) VALUES ('x', 'cli', 1)").run();
    expect(reason(() => readSnapshot(path, { busyTimeoutMs: 50 }))).toBe('locked');
    h.db.exec('ROLLBACK');
  });
});

describe('never writing the source', () => {
  it('leaves the bytes and mtime unchanged, also while a Hermes writer holds it open in WAL mode', () => {
    const path = join(tempDir(), 'state.db');
    const h = buildCurrentEra(path);
    open.push(h);
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    const before = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
    h.message('inplace', { role: 'user', content: 'written while the importer reads' });
    const snap = readSnapshot(path);
    expect(snap.messages.get('inplace')!.at(-1)!.content).toBe('written while the importer reads');
    expect(readFileSync(path).equals(before.bytes)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(before.mtime);
  });

  it('reads a copy of a closed WAL file without changing it', () => {
    const dir = tempDir();
    const h = buildV2Era(join(dir, 'a.db'));
    h.close();
    copyFileSync(join(dir, 'a.db'), join(dir, 'state.db'));
    const before = { bytes: readFileSync(join(dir, 'state.db')), mtime: statSync(join(dir, 'state.db')).mtimeMs };
    readSnapshot(join(dir, 'state.db'));
    expect(readFileSync(join(dir, 'state.db')).equals(before.bytes)).toBe(true);
    expect(statSync(join(dir, 'state.db')).mtimeMs).toBe(before.mtime);
  });
});
