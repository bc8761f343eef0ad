import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '@session-ledger/core';
import { openSqliteStore, SCHEMA_VERSION } from '@session-ledger/store-sqlite';
import { MIGRATIONS } from '../../packages/store-sqlite/src/schema.js';
import { expectLedgerError } from '../conformance/helpers.js';
import { tempLedger } from './tempLedger.js';

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const expectRefused = (file: string, message: RegExp) => {
  let caught: unknown;
  try {
    openSqliteStore(file);
  } catch (error) {
    caught = error;
  }
  expect(caught).toMatchObject({ type: 'store_unavailable' });
  expect((caught as Error).message).toMatch(message);
  expect((caught as Error).message).not.toContain('\n');
};

/** Files this process holds open (Linux: /proc/self/fd). */
const openFiles = (): string[] =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });

describe('SQLite schema versions and migrations', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('schema');
  });
  afterEach(() => temp.remove());

  it('a new file is created at the current schema version, in WAL mode', async () => {
    const store = openSqliteStore(temp.file);
    await store.close();
    const db = new Database(temp.file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare(`SELECT value FROM ledger_meta WHERE key = 'format'`).pluck().get()).toBe('session-ledger');
    db.close();
  });

  it('reopening a current file keeps its events and its version', async () => {
    const id = newId();
    const first = openSqliteStore(temp.file);
    await first.appendToStream('kept', [{ id, type: 't', data: { n: 1 } }]);
    await first.close();
    const second = openSqliteStore(temp.file);
    expect((await second.readStream('kept')).map((event) => event.id)).toEqual([id]);
    await second.close();
    const db = new Database(temp.file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('a version 1 file is migrated to the current version and keeps its streams', async () => {
    const v1 = new Database(temp.file);
    v1.pragma('journal_mode = WAL');
    v1.exec(MIGRATIONS[0]!);
    v1.pragma('user_version = 1');
    const ids = [newId(), newId(), newId()];
    const insert = v1.prepare(`INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, 't', '{}', '{}', '')`);
    ids.forEach((id, revision) => insert.run('old', revision, id));
    v1.prepare(`INSERT INTO streams (name, last_revision, first_live, tombstoned) VALUES ('old', 2, 0, 0)`).run();
    v1.close();
    const store = openSqliteStore(temp.file);
    expect((await store.readStream('old')).map((event) => event.id)).toEqual(ids);
    await expectLedgerError(store.appendToStream('old', [{ id: newId(), type: 't', data: {} }], { expectedRevision: 1n }), 'wrong_expected_version', { actual: '2' });
    expect((await store.appendToStream('old', [{ id: newId(), type: 't', data: {} }], { expectedRevision: 2n })).nextExpectedRevision).toBe(3n);
    await store.close();
    const db = new Database(temp.file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('a version 2 file is migrated: its event ids move from the events_stream_id index to indexed_ids (versions 3 and 6), and replays still find them', async () => {
    const v2 = new Database(temp.file);
    v2.pragma('journal_mode = WAL');
    v2.exec(MIGRATIONS[0]!);
    v2.exec(MIGRATIONS[1]!);
    v2.pragma('user_version = 2');
    const ids = [newId(), newId(), newId(), newId()];
    const insert = v2.prepare(`INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, 't', '{}', '{}', '')`);
    ids.forEach((id, revision) => insert.run('old', revision, id));
    insert.run('other', 0, ids[1]);
    v2.prepare(`INSERT INTO streams (name, last_revision, first_live, tombstoned) VALUES ('old', 0, 0, 0), ('other', 0, 0, 0)`).run();
    v2.close();

    const store = openSqliteStore(temp.file);
    const db = new Database(temp.file, { readonly: true });
    const objects = db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'index', 'trigger')`).pluck().all();
    expect(objects).toContain('indexed_ids');
    expect(objects).not.toEqual(expect.arrayContaining(['events_stream_id', 'event_ids', 'events_id_recorded']));
    expect(db.prepare(`SELECT value FROM ledger_meta WHERE key = 'ids.indexed_through'`).pluck().get()).toBe('5');
    expect(db.prepare('SELECT stream, id, revision FROM indexed_ids ORDER BY stream, revision').raw().all()).toEqual([
      ...ids.map((id, revision) => ['old', id, revision]),
      ['other', ids[1], 0],
    ]);
    // 'any' finds a batch written before the migration by its first id: a replay writes nothing, a partial overlap conflicts
    const replay = await store.appendToStream('old', [ids[1], ids[2]].map((id) => ({ id: id!, type: 't', data: {} })), { expectedRevision: 'any' });
    expect(replay).toMatchObject({ nextExpectedRevision: 2n, written: false });
    const overlap = [ids[2], newId()].map((id) => ({ id: id!, type: 't', data: {} }));
    await expectLedgerError(store.appendToStream('old', overlap, { expectedRevision: 'any' }), 'wrong_expected_version', { stream: 'old' });
    // an append after the migration leaves its id unindexed until a batch is due (idIndex.ts), and a replay still finds it
    const added = newId();
    await store.appendToStream('old', [{ id: added, type: 't', data: {} }], { expectedRevision: 3n });
    expect(db.prepare(`SELECT revision FROM indexed_ids WHERE stream = 'old' AND id = ?`).pluck().safeIntegers(true).all(added)).toEqual([]);
    expect((await store.appendToStream('old', [{ id: added, type: 't', data: {} }], { expectedRevision: 'any' })).written).toBe(false);
    expect((await store.readStream('old')).map((event) => event.id)).toEqual([...ids, added]);
    db.close();
    await store.close();
  });

  it('a file from a newer session-ledger is refused and left unchanged', async () => {
    const store = openSqliteStore(temp.file);
    await store.appendToStream('s', [{ id: newId(), type: 't', data: {} }]);
    await store.close();
    const db = new Database(temp.file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = digest(temp.file);
    expectRefused(temp.file, /newer/);
    expect(digest(temp.file)).toBe(before);
  });

  it('a SQLite file of another program is refused and left unchanged', () => {
    const db = new Database(temp.file);
    db.exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');`);
    db.close();
    const before = digest(temp.file);
    expectRefused(temp.file, /not a session-ledger store/);
    expect(digest(temp.file)).toBe(before);
    expect(existsSync(`${temp.file}-wal`)).toBe(false);
    if (existsSync('/proc/self/fd')) expect(openFiles()).not.toContain(temp.file);
    const check = new Database(temp.file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(check.prepare('SELECT body FROM notes').pluck().all()).toEqual(['mine']);
    check.close();
  });

  it('a file that is not SQLite is refused and left unchanged', () => {
    writeFileSync(temp.file, 'these are my notes, not a database\n'.repeat(200));
    const before = digest(temp.file);
    expectRefused(temp.file, /Cannot open ledger/);
    expect(digest(temp.file)).toBe(before);
  });

  it('with create: false a missing file is refused and not created', async () => {
    let caught: unknown;
    try {
      openSqliteStore(temp.file, { create: false });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ type: 'store_unavailable' });
    expect(existsSync(temp.file)).toBe(false);
    const created = openSqliteStore(temp.file);
    await created.close();
    const reopened = openSqliteStore(temp.file, { create: false });
    await expectLedgerError(reopened.readStream('nothing'), 'stream_not_found');
    await reopened.close();
  });
});
