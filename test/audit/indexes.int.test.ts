import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, newId, verifyLog, type NewEvent } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempLedger } from '../store-sqlite/tempLedger.js';

const event = (n: number): NewEvent => ({ id: newId(), type: 'said', data: { n } });

/**
 * `audit verify` with `indexes`: the SQLite store's own indexes against its events. None of them is in
 * the log, so tampering with them passes the log's checks; these are the cases it must catch.
 */
describe("verify's index check on a SQLite ledger", () => {
  let temp: ReturnType<typeof tempLedger>;
  /** 300 events in three streams: the first 256 positions indexed, the rest the backlog; one stream deleted. */
  beforeEach(async () => {
    temp = tempLedger('indexes');
    const ledger = createLedger(openSqliteStore(temp.file));
    // At exact revisions: no lookup of ids, so the backlog is indexed at 256 (idIndex.ts, ID_BATCH).
    for (let n = 0; n < 300; n += 1) await ledger.append(`chat-${n % 3}`, [event(n)], { expectedRevision: n < 3 ? 'no_stream' : BigInt(Math.floor(n / 3) - 1) });
    await ledger.append('gone', [event(0), event(1)], { expectedRevision: 'no_stream' });
    await ledger.store.tombstoneStream('gone', { expectedRevision: 1n });
    await ledger.append('soft', [event(0), event(1)], { expectedRevision: 'no_stream' });
    await ledger.store.deleteStream('soft', { expectedRevision: 1n });
    // Not 'any': its id lookup reads the backlog, and a long one is then indexed at once (idIndex.ts, READ_LIMIT).
    await ledger.append('soft', [event(2)], { expectedRevision: 'no_stream' });
    await ledger.store.close();
  });
  afterEach(() => temp.remove());

  const edit = (sql: string) => {
    const db = new Database(temp.file);
    db.unsafeMode(true); // writable_schema, for the integrity case
    db.exec(sql);
    db.close();
  };
  const verified = async () => {
    const store = openSqliteStore(temp.file);
    try {
      const report = await verifyLog(store, { indexes: true, maxBreaks: 3 });
      return { ok: report.ok, indexesChecked: report.indexesChecked, breakCount: report.breakCount, breaks: report.breaks.map(({ kind, stream, revision, position, message }) => ({ kind, stream, revision, position, message })) };
    } finally {
      await store.close();
    }
  };
  const idAt = (stream: string, revision: number) => {
    const db = new Database(temp.file, { readonly: true });
    const row = db.prepare('SELECT id, position FROM events WHERE stream = ? AND revision = ?').safeIntegers(true).get(stream, revision) as { id: string; position: bigint };
    db.close();
    return row;
  };

  it('a clean ledger, with a backlog, a tombstoned and a soft-deleted stream, agrees; without the option nothing is checked', async () => {
    expect(await verified()).toEqual({ ok: true, indexesChecked: true, breakCount: 0, breaks: [] });
    const store = openSqliteStore(temp.file);
    expect((await verifyLog(store)).indexesChecked).toBeUndefined();
    await store.close();
  });

  it('an indexed event whose id row is gone: a break at the event, and the log itself still verifies', async () => {
    const { id, position } = idAt('chat-1', 7);
    edit(`DELETE FROM indexed_ids WHERE stream = 'chat-1' AND revision = 7`);
    expect(await verified()).toMatchObject({
      ok: false,
      breakCount: 1,
      breaks: [{ kind: 'index', stream: 'chat-1', revision: 7n, position, message: expect.stringContaining(`event ${id} is not in the id index (indexed through position 256)`) }],
    });
    const store = openSqliteStore(temp.file);
    expect((await verifyLog(store)).ok).toBe(true);
    await store.close();
  });

  it('an id row naming no stored event, or another id than the event at its revision: a break each', async () => {
    const stray = newId();
    const { id } = idAt('chat-2', 3);
    const other = newId();
    edit(`INSERT INTO indexed_ids (stream, id, revision) VALUES ('chat-0', '${stray}', 500);
      UPDATE indexed_ids SET id = '${other}' WHERE stream = 'chat-2' AND revision = 3`);
    const report = await verified();
    expect(report.breakCount).toBe(3);
    expect(report.breaks.map((item) => item.message).sort()).toEqual([
      expect.stringContaining(`chat-0@500: the id index names event ${stray} here, and no such event is stored`),
      expect.stringContaining(`chat-2@3: event ${id} is not in the id index`),
      expect.stringContaining(`chat-2@3: the id index names event ${other} here, and no such event is stored`),
    ].sort((a, b) => String(a).localeCompare(String(b))));
  });

  it('the watermark past the highest position, or not a position: named, and nothing else held against the index', async () => {
    edit(`UPDATE ledger_meta SET value = '100000' WHERE key = 'ids.indexed_through'`);
    const past = await verified();
    expect(past.breaks[0]!.message).toMatch(/ids\.indexed_through' is 100000, past the highest position given \(\d+\): the ids of events appended up to it would never be indexed/);
    // Every event above 256 lacks its row now that the watermark claims them.
    expect(past.breakCount).toBe(1 + 300 + 1 - 256);
    edit(`UPDATE ledger_meta SET value = 'abc' WHERE key = 'ids.indexed_through'`);
    expect(await verified()).toMatchObject({ breakCount: 1, breaks: [{ kind: 'index', stream: null, message: `the log: ledger_meta 'ids.indexed_through' is "abc", not a position: the id index cannot be checked` }] });
  });

  it("SQLite's integrity_check: an index that no longer matches its table is a break", async () => {
    edit(`CREATE TABLE probe (a TEXT); CREATE INDEX probe_a ON probe (a); INSERT INTO probe VALUES ('x'), ('y')`);
    edit(`PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE INDEX probe_a ON probe (upper(a))' WHERE name = 'probe_a'`);
    expect(await verified()).toMatchObject({ ok: false, breakCount: 2, breaks: [{ kind: 'index', message: 'the log: SQLite integrity_check: row 1 missing from index probe_a' }, { kind: 'index' }] });
  });
});
