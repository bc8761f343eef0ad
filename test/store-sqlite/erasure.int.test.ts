import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId, type EventStore } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { ID_BATCH } from '../../packages/store-sqlite/src/idIndex.js';
import { tempLedger } from './tempLedger.js';

/** Whether any of the ledger's files (the database, its WAL) still hold the text. */
const filesHold = (file: string, text: string): string[] =>
  [file, `${file}-wal`].filter((path) => existsSync(path) && readFileSync(path).includes(Buffer.from(text)));

describe('SQLite erasure on tombstone', () => {
  let temp: ReturnType<typeof tempLedger>;
  let stores: EventStore[];
  beforeEach(() => {
    temp = tempLedger('erasure');
    stores = [];
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    temp.remove();
  });
  const open = () => {
    const store = openSqliteStore(temp.file);
    stores.push(store);
    return store;
  };

  /** A secret written in small events and in one large enough to spill into overflow pages. */
  const writeSecret = async (store: EventStore, stream: string) => {
    const secret = `secret-${randomUUID()}`;
    const events = [
      { id: newId(), type: 'turn', data: { text: `my password is ${secret}` }, metadata: { note: secret } },
      { id: newId(), type: 'turn', data: { text: `${secret} `.repeat(2000) } },
    ];
    await store.appendToStream(stream, events);
    await store.appendToStream(`kept-${randomUUID()}`, [{ id: newId(), type: 'turn', data: { text: 'still here' } }]);
    expect(filesHold(temp.file, secret)).not.toEqual([]);
    return { secret, ids: events.map((event) => event.id) };
  };

  it('after tombstoneStream the content is in neither the .sqlite nor the -wal file', async () => {
    const store = open();
    const { secret } = await writeSecret(store, 'session-secret');
    await store.tombstoneStream('session-secret');
    expect(filesHold(temp.file, secret)).toEqual([]);
  });

  it('the content is gone even while another connection has the file open', async () => {
    const store = open();
    const other = open();
    const { secret } = await writeSecret(store, 'session-secret');
    expect((await other.readAll({ maxCount: 10 })).length).toBeGreaterThan(0);
    await store.tombstoneStream('session-secret');
    expect(filesHold(temp.file, secret)).toEqual([]);
  });

  it('the erased events\' ids are gone too, not yet indexed (idIndex.ts) or indexed (the indexed_ids table)', async () => {
    const store = open();
    const backlog = await writeSecret(store, 'session-secret');
    const indexed = await writeSecret(store, 'session-indexed');
    // one append of a whole batch indexes every id before it, session-indexed's among them
    await store.appendToStream('session-filler', Array.from({ length: ID_BATCH }, () => ({ id: newId(), type: 'turn', data: {} })));
    const db = new Database(temp.file, { readonly: true });
    const indexedIds = () => db.prepare(`SELECT id FROM indexed_ids WHERE stream = 'session-indexed'`).pluck().all();
    expect(indexedIds()).toEqual(expect.arrayContaining(indexed.ids));
    for (const id of [...backlog.ids, ...indexed.ids]) expect(filesHold(temp.file, id)).not.toEqual([]);
    await store.tombstoneStream('session-indexed');
    expect(indexedIds()).toEqual([]);
    db.close();
    await store.tombstoneStream('session-secret');
    for (const id of [...backlog.ids, ...indexed.ids]) expect(filesHold(temp.file, id)).toEqual([]);
  });

  it('a soft delete erases the events and their ids as well (once a checkpoint has moved them out of the WAL)', async () => {
    const store = open();
    const { secret, ids } = await writeSecret(store, 'session-secret');
    await store.deleteStream('session-secret');
    await store.tombstoneStream(`unrelated-${randomUUID()}`); // a checkpoint, so the WAL holds no earlier frames
    expect(filesHold(temp.file, secret)).toEqual([]);
    for (const id of ids) expect(filesHold(temp.file, id)).toEqual([]);
  });

  it('the content is gone after the store is closed and reopened', async () => {
    const store = open();
    const { secret } = await writeSecret(store, 'session-secret');
    await store.tombstoneStream('session-secret');
    await store.close();
    const reopened = open();
    await expect(reopened.readStream('session-secret')).rejects.toMatchObject({ type: 'stream_deleted' });
    expect(filesHold(temp.file, secret)).toEqual([]);
  });
});
