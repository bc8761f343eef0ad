import Database from 'better-sqlite3';
import { chainHash, createLedger, HASH, newId, PREV_HASH, type JsonObject, type JsonValue } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';

/** Two streams of 10 events each, appended alternately (their positions interleave), and a third of 3. */
export const writeLedger = async (file: string): Promise<void> => {
  const store = openSqliteStore(file);
  const ledger = createLedger(store);
  for (let n = 0; n < 10; n += 1) {
    await ledger.append('session-a', [{ id: newId(), type: 'message', data: { n, text: `a says ${n}` } }]);
    await ledger.append('session-b', [{ id: newId(), type: 'message', data: { n, text: `b says ${n}` } }]);
  }
  await ledger.append('session-c', [0, 1, 2].map((n) => ({ id: newId(), type: 'message', data: { n } })));
  await store.close();
};

/** Runs `edit` on the file behind the store's back. */
export const tamper = (file: string, edit: (db: Database.Database) => void): void => {
  const db = new Database(file);
  try {
    edit(db);
  } finally {
    db.close();
  }
};

interface Row {
  position: number;
  revision: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** Recomputes a stream's hash chain in place, as an adversary who knows the rules would. */
export const rechain = (db: Database.Database, stream: string): void => {
  const rows = db.prepare('SELECT position, revision, id, type, data, metadata FROM events WHERE stream = ? ORDER BY revision').all(stream) as Row[];
  let prev: string | null = null;
  for (const row of rows) {
    const { [HASH]: _old, ...rest } = JSON.parse(row.metadata) as JsonObject;
    const metadata: JsonObject = { ...rest, [PREV_HASH]: prev };
    const hash = chainHash({ stream, revision: BigInt(row.revision), id: row.id, type: row.type, data: JSON.parse(row.data) as JsonValue, metadata });
    db.prepare('UPDATE events SET metadata = ? WHERE position = ?').run(JSON.stringify({ ...metadata, [HASH]: hash }), row.position);
    prev = hash;
  }
};

/** Edits one event's data object; the chain is left as it was. */
export const editData = (db: Database.Database, stream: string, revision: number, change: (data: JsonObject) => JsonObject): void => {
  const row = db.prepare('SELECT data FROM events WHERE stream = ? AND revision = ?').get(stream, revision) as { data: string };
  db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(JSON.stringify(change(JSON.parse(row.data) as JsonObject)), stream, revision);
};

export const editMetadata = (db: Database.Database, stream: string, revision: number, change: (metadata: JsonObject) => JsonObject): void => {
  const row = db.prepare('SELECT metadata FROM events WHERE stream = ? AND revision = ?').get(stream, revision) as { metadata: string };
  db.prepare('UPDATE events SET metadata = ? WHERE stream = ? AND revision = ?').run(JSON.stringify(change(JSON.parse(row.metadata) as JsonObject)), stream, revision);
};

export const positionOf = (db: Database.Database, stream: string, revision: number): number =>
  (db.prepare('SELECT position FROM events WHERE stream = ? AND revision = ?').get(stream, revision) as { position: number }).position;
