import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, eventLeafHash, newId, verifyInclusion, verifyLog, leafHash } from '@session-ledger/core';
import { openSqliteStore, SCHEMA_VERSION } from '@session-ledger/store-sqlite';
import { storedChainHash } from '../../packages/store-sqlite/src/log/tables.js';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { tamper } from './tamperFixture.js';

const said = (n: number) => ({ id: newId(), type: 'message', data: { n } });

/**
 * A file whose leaves were written before schema version 7, in the earlier form (no position): made
 * by rewriting every event leaf of a new file in that form and dropping the stored subtrees (they are
 * computed again from their halves), then marking it version 6.
 */
const asVersionSix = (file: string) =>
  tamper(file, (db) => {
    const rows = db
      .prepare('SELECT l.leaf_index AS leaf, e.position, e.stream, e.revision, e.id, e.type, e.data, e.metadata, e.created FROM log_leaves l JOIN events e ON e.position = l.position')
      .safeIntegers(true)
      .all() as Array<{ leaf: bigint; position: bigint; stream: string; revision: bigint; id: string; type: string; data: string; metadata: string; created: string }>;
    const update = db.prepare('UPDATE log_leaves SET hash = ? WHERE leaf_index = ?');
    for (const row of rows) update.run(eventLeafHash({ index: Number(row.leaf), position: null, stream: row.stream, revision: row.revision, hash: storedChainHash(row), created: row.created }), row.leaf);
    db.exec(`DELETE FROM log_nodes; DELETE FROM ledger_meta WHERE key = 'log.leaf'; PRAGMA user_version = 6`);
  });

describe('event leaves before and since schema version 7 (positions in the leaf)', () => {
  let temp: ReturnType<typeof tempLedger>;
  beforeEach(async () => {
    temp = tempLedger('leaf-form');
    const ledger = createLedger(openSqliteStore(temp.file));
    for (let n = 0; n < 20; n += 1) await ledger.append(`session-${n % 2}`, [said(n)]);
    await ledger.store.close();
    asVersionSix(temp.file);
  });
  afterEach(() => temp.remove());

  it('Given a version 6 file, When it is opened, Then it is version 7, its earlier leaves verify and prove, and new leaves commit to their position', async () => {
    const store = openSqliteStore(temp.file);
    expect(SCHEMA_VERSION).toBe(7);
    expect(await verifyLog(store)).toMatchObject({ ok: true, size: 20 });
    await createLedger(store).append('session-0', [said(20)]);
    expect(await verifyLog(store)).toMatchObject({ ok: true, size: 21 });
    // The range scans on worker threads too, a range holding both forms among them.
    expect(await verifyLog(store, { parallel: { minLeaves: 0, span: 4 } })).toMatchObject({ ok: true, size: 21, events: 21 });
    const digest = await store.log!.digest();
    const old = await store.log!.proof('session-1', 3n);
    const fresh = await store.log!.proof('session-0', 10n);
    expect(JSON.parse(old.leafInput!)).not.toHaveProperty('position');
    expect(JSON.parse(fresh.leafInput!)).toMatchObject({ position: String(fresh.position), index: '20' });
    for (const proof of [old, fresh]) {
      expect(leafHash(proof.leafInput!).toString('hex')).toBe(proof.leafHash);
      expect(verifyInclusion(proof.index, digest.size, Buffer.from(proof.leafHash, 'hex'), proof.path.map((hash) => Buffer.from(hash, 'hex')), Buffer.from(digest.root, 'hex'))).toBe(true);
    }
    await store.close();
    const db = new Database(temp.file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    db.close();
  });

  it('When positions are moved in both tables, Then a leaf written since version 7 is a break, one written before is not (its form never committed to it)', async () => {
    const store = openSqliteStore(temp.file);
    await createLedger(store).append('session-0', [said(20)]);
    await store.close();
    tamper(temp.file, (db) => {
      for (const table of ['events', 'log_leaves']) db.prepare(`UPDATE ${table} SET position = position + 1000 WHERE position > 15`).run();
    });
    const reopened = openSqliteStore(temp.file);
    const report = await verifyLog(reopened);
    expect(report.breaks.map((item) => `${item.kind} ${item.stream}@${item.revision}`)).toEqual(['leaf session-0@10']);
    expect(await verifyLog(reopened, { parallel: { minLeaves: 0, span: 4 } })).toEqual(report);
    await reopened.close();
  });
});
