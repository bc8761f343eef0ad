import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, newId, verifyLog, type LogVerifyReport } from '@session-ledger/core';
import { openSqliteStore, SCHEMA_VERSION } from '@session-ledger/store-sqlite';
import { tempLedger } from './tempLedger.js';
import { versionFourFile } from './versionFourFile.js';

const event = (n: number) => ({ id: newId(), type: 't', data: { n } });

/** The log's own breaks: the version 4 file's events were written without the ledger's chain. */
const logBreaks = (report: LogVerifyReport) => report.breaks.filter((item) => item.kind !== 'hash' && item.kind !== 'prev');

describe('SQLite positions without AUTOINCREMENT (schema version 5)', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('positions');
  });
  afterEach(() => temp.remove());

  it('an append writes no sqlite_sequence row: the events table has no AUTOINCREMENT', async () => {
    const store = openSqliteStore(temp.file);
    await store.appendToStream('s', [event(1), event(2)]);
    await store.close();
    const db = new Database(temp.file, { readonly: true });
    expect(db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'events'`).pluck().get()).not.toMatch(/AUTOINCREMENT/i);
    expect(db.prepare(`SELECT count(*) FROM sqlite_sequence WHERE name = 'events'`).pluck().get()).toBe(0);
    db.close();
  });

  it('positions are never reused after the stream holding the highest ones is deleted or tombstoned, across reopening', async () => {
    let ledger = createLedger(openSqliteStore(temp.file));
    await ledger.append('a', [event(1)]);
    const soft = await ledger.append('b', [event(2), event(3)]);
    await ledger.store.deleteStream('b');
    await ledger.store.close();
    ledger = createLedger(openSqliteStore(temp.file));
    const store = ledger.store;
    const afterSoft = await ledger.append('c', [event(4)]);
    expect(afterSoft.position).toBeGreaterThan(soft.position);
    const hard = await ledger.append('d', [event(5)]);
    await store.tombstoneStream('d');
    const afterTombstone = await ledger.append('a', [event(6), event(7)]);
    expect(afterTombstone.position).toBe(hard.position + 2n);
    expect((await store.readAll()).map((recorded) => recorded.position)).toEqual([1n, 4n, afterTombstone.position - 1n, afterTombstone.position]);
    expect((await verifyLog(store)).breaks).toEqual([]);
    await store.close();
  });

  it('a version 4 file is rebuilt at version 5 with its rows, and keeps the highest position it assigned before its log as a floor', async () => {
    versionFourFile(temp.file);
    const store = openSqliteStore(temp.file);
    const before = await store.readAll();
    expect(before.map((recorded) => [recorded.streamName, recorded.revision, recorded.position])).toEqual([
      ['old', 0n, 1n],
      ['old', 1n, 2n],
      ['old', 2n, 3n],
    ]);
    // Positions 4 and 5 were given to `gone` before the log: the next event goes above them.
    const appended = await store.appendToStream('old', [event(3)], { expectedRevision: 2n });
    expect(appended.position).toBe(6n);
    expect((await store.appendToStream('gone', [event(2)], { expectedRevision: 'no_stream' })).position).toBe(7n);
    expect((await store.readStream('old')).map((recorded) => recorded.revision)).toEqual([0n, 1n, 2n, 3n]);
    const report = await verifyLog(store);
    expect(logBreaks(report)).toEqual([]);
    expect(report).toMatchObject({ size: 6, events: 5 });
    await store.close();
    const db = new Database(temp.file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare(`SELECT value FROM ledger_meta WHERE key = 'positions.floor'`).pluck().get()).toBe('5');
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).pluck().all()).toEqual(['events_position_given']);
    db.close();
  });

  it('a process of an older version, open on the file while it was migrated, cannot append at a position erased events held', async () => {
    versionFourFile(temp.file);
    const older = new Database(temp.file); // its append as schema 4 wrote it: the position left to SQLite
    const olderAppend = older.prepare(`INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES ('old', 3, ?, 't', '{"n":9}', '{}', '')`);
    (await openSqliteStore(temp.file).close());

    expect(() => olderAppend.run(newId())).toThrow(/schema version 5 .* older version/);
    older.close();
    const store = openSqliteStore(temp.file);
    expect((await store.readStream('old')).map((recorded) => [recorded.revision, recorded.position])).toEqual([[0n, 1n], [1n, 2n], [2n, 3n]]);
    expect((await store.appendToStream('old', [event(3)], { expectedRevision: 2n })).position).toBe(6n);
    await store.close();
  });

  it('a version 5 migration that fails leaves the version 4 file as it was (one transaction: a kill -9 rolls it back the same way)', async () => {
    versionFourFile(temp.file);
    const blocker = new Database(temp.file);
    blocker.exec('CREATE TABLE events_v5 (x INTEGER)'); // the migration's CREATE TABLE fails midway
    blocker.close();
    expect(() => openSqliteStore(temp.file)).toThrow(/events_v5/);
    const db = new Database(temp.file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    expect(db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'events'`).pluck().get()).toMatch(/AUTOINCREMENT/i);
    expect(db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(3);
    expect(db.prepare(`SELECT count(*) FROM ledger_meta WHERE key = 'positions.floor'`).pluck().get()).toBe(0);
    db.close();
  });
});
