import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId, type EventStore } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { runCli } from '../support/cli.js';
import { tempLedger } from './tempLedger.js';

const event = () => ({ id: newId(), type: 'said', data: { n: 1 } });

/** A file changed behind the store's back: every surface refuses with store_unavailable naming the damage, never an internal error. */
describe('a ledger file damaged behind the store', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(async () => {
    temp = tempLedger('damaged');
    const store = openSqliteStore(temp.file);
    await store.appendToStream('chat', [event(), event()], { expectedRevision: 'no_stream' });
    await store.close();
  });
  afterEach(() => temp.remove());

  const edit = (sql: string) => {
    const db = new Database(temp.file);
    db.exec(sql);
    db.close();
  };
  const refusal = async (operation: (store: EventStore) => Promise<unknown>) => {
    const store = openSqliteStore(temp.file);
    try {
      return await operation(store).then(() => 'done', (error: unknown) => error);
    } finally {
      await store.close();
    }
  };

  it("a stream's state row gone: its reads and appends say so, instead of not found or a duplicate revision", async () => {
    edit(`DELETE FROM streams WHERE name = 'chat'`);
    const damage = { type: 'store_unavailable', message: 'The ledger file is damaged: stream "chat" holds events through revision 1 but has no state row' };
    expect(await refusal((store) => store.appendToStream('chat', [event()]))).toMatchObject(damage);
    expect(await refusal((store) => store.readStream('chat'))).toMatchObject(damage);
    expect(await refusal((store) => store.appendToStream('other', [event()]))).toBe('done');
  });

  it.each([
    [`DELETE FROM ledger_meta WHERE key = 'ids.indexed_through'`, `ledger_meta 'ids.indexed_through' is missing, not a position`],
    [`UPDATE ledger_meta SET value = 'abc' WHERE key = 'ids.indexed_through'`, `ledger_meta 'ids.indexed_through' is "abc", not a position`],
  ])('%s: a retry under any is refused, naming the value', async (sql, what) => {
    edit(sql);
    expect(await refusal((store) => store.appendToStream('chat', [event()], { expectedRevision: 'any' }))).toMatchObject({ type: 'store_unavailable', message: `The ledger file is damaged: ${what}` });
  });

  it('positions.floor not a number: the store does not open, and the CLI exits 4 with one line', () => {
    edit(`INSERT OR REPLACE INTO ledger_meta (key, value) VALUES ('positions.floor', 'xyz')`);
    expect(() => openSqliteStore(temp.file)).toThrow(`The ledger file is damaged: ledger_meta 'positions.floor' is "xyz", not a position`);
    const cli = runCli(['audit', 'verify'], { env: { SESSION_LEDGER_STORE: `sqlite:${temp.file}` } });
    expect([cli.code, cli.stderr]).toEqual([4, `session-ledger: The ledger file is damaged: ledger_meta 'positions.floor' is "xyz", not a position\n`]);
  });
});
