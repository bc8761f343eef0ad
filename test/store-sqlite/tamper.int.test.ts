import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, newId } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempLedger } from './tempLedger.js';

/** Changes one byte of the stored `data` column of one event, behind the store's back. */
const editOneByte = (file: string, stream: string, revision: number) => {
  const db = new Database(file);
  const row = db.prepare('SELECT data FROM events WHERE stream = ? AND revision = ?').get(stream, revision) as { data: string };
  const at = row.data.indexOf('7');
  const edited = `${row.data.slice(0, at)}8${row.data.slice(at + 1)}`;
  db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(edited, stream, revision);
  db.close();
};

describe('hash chain over a SQLite file', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(() => {
    temp = tempLedger('tamper');
  });
  afterEach(() => temp.remove());

  const writeLedger = async () => {
    const store = openSqliteStore(temp.file);
    const ledger = createLedger(store);
    await ledger.append('session-a', [0, 1, 2, 3].map((n) => ({ id: newId(), type: 'turn', data: { n, amount: 1700 + n } })));
    await ledger.append('session-b', [{ id: newId(), type: 'turn', data: { amount: 17 } }]);
    expect((await ledger.verify()).broken).toBeNull();
    await store.close();
  };

  it('verify reports the stream and revision of an event whose data was edited by one byte', async () => {
    await writeLedger();
    editOneByte(temp.file, 'session-a', 2);
    const store = openSqliteStore(temp.file);
    const report = await createLedger(store).verify();
    expect(report.broken).toMatchObject({ stream: 'session-a', revision: 2n, reason: 'hash' });
    expect(report.broken!.expected).not.toBe(report.broken!.found);
    expect((await createLedger(store).verify({ stream: 'session-b' })).broken).toBeNull();
    await store.close();
  });

  it('ledger appends after a soft delete continue the numbering and verify', async () => {
    const store = openSqliteStore(temp.file);
    const ledger = createLedger(store);
    await ledger.append('session-a', [{ id: newId(), type: 'turn', data: { n: 0 } }, { id: newId(), type: 'turn', data: { n: 1 } }]);
    await store.deleteStream('session-a', { expectedRevision: 1n });
    await ledger.append('session-a', [{ id: newId(), type: 'turn', data: { n: 2 } }]);
    await createLedger(store).append('session-a', [{ id: newId(), type: 'turn', data: { n: 3 } }], { expectedRevision: 2n });
    expect((await store.readStream('session-a')).map((event) => event.revision)).toEqual([2n, 3n]);
    expect((await createLedger(store).verify()).broken).toBeNull();
    await store.close();
  });

  it('verify of the one edited stream reports it too', async () => {
    await writeLedger();
    editOneByte(temp.file, 'session-b', 0);
    const store = openSqliteStore(temp.file);
    const report = await createLedger(store).verify({ stream: 'session-b' });
    expect(report.broken).toMatchObject({ stream: 'session-b', revision: 0n });
    await store.close();
  });
});
