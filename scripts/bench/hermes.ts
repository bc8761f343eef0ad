import Database from 'better-sqlite3';
import type { EventStore } from '@session-ledger/core';
import { importHermes, type StoreOpener } from '@session-ledger/import-hermes';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { compareRates, compared, scratch } from './measure.js';
import { openPlain, type PlainSqlite } from './plainSqlite.js';
import type { BenchRow } from './types.js';

/**
 * Issue 7: importing a Hermes Agent state.db. One session of 50k messages (tool calls every tenth
 * row) imported into a fresh SQLite ledger: read in one snapshot, mapped, validated, hash-chained
 * and appended with exact expected revisions. Baseline, in the same run: reading the same rows
 * with plain better-sqlite3 (one SELECT, every column), the floor of any import; and (issue 16) the
 * same rows read and written as plain batched inserts (better-sqlite3, 1,000 rows a transaction, into
 * a table shaped like the store's), the bar the import is held to (>= 0.3 of it). The import runs as the
 * CLI runs it by default for a source this large (Session 8): split, the append on a second thread
 * through its own store on the same file; the same import on one thread (`--threads 1`) beside it.
 */
const MESSAGES = 50_000;
const RUNS = 3;

const buildSource = (path: string): void => {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL);
    INSERT INTO schema_version VALUES (30);
    CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT,
      started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, title TEXT, cwd TEXT);
    CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
      content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER,
      finish_reason TEXT, reasoning TEXT, platform_message_id TEXT, _compressed_summary INTEGER NOT NULL DEFAULT 0,
      active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0);
    INSERT INTO sessions (id, source, model, started_at, title, cwd) VALUES ('bench', 'cli', 'hermes-4-70b', 1700000000, 'bench', '/work');`);
  const insert = db.prepare(
    `INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason)
     VALUES ('bench', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < MESSAGES; i += 1) {
      const t = 1_700_000_000 + i;
      if (i % 10 === 9) insert.run('tool', `output of call ${i}: ${'line\n'.repeat(8)}`, `call_${i}`, null, 'terminal', t, null, null);
      else if (i % 10 === 8) insert.run('assistant', null, null, JSON.stringify([{ id: `call_${i + 1}`, type: 'function', function: { name: 'terminal', arguments: '{"cmd":"ls"}' } }]), null, t, 30, 'tool_calls');
      else if (i % 2 === 0) insert.run('user', `question ${i}: ${'words '.repeat(20)}`, null, null, null, t, null, null);
      else insert.run('assistant', `answer ${i}: ${'words '.repeat(40)}`, null, null, null, t, 60, 'stop');
    }
  })();
  db.close();
};

export const rows = async (): Promise<BenchRow[]> => {
  const dir = scratch('hermes');
  const source = dir.file('state.db');
  buildSource(source);
  let run = 0;
  const storeModule = import.meta.resolve('@session-ledger/store-sqlite');
  /** One import of the whole source into a new ledger file: split (the worker opens the same file), or on one thread. */
  const importTrial = (split: boolean) => ({
    prepare: () => {
      const file = dir.file(`ledger-${(run += 1)}.sqlite`);
      const appendThread: StoreOpener | undefined = split ? { module: storeModule, name: 'openSqliteStore', args: [file] } : undefined;
      return { store: openSqliteStore(file), appendThread };
    },
    work: async ({ store, appendThread }: { store: EventStore; appendThread: StoreOpener | undefined }) => {
      const report = await importHermes(store, { path: source, appendThread });
      if (report.messages !== MESSAGES) throw new Error(`imported ${report.messages} of ${MESSAGES} messages`);
    },
    cleanup: ({ store }: { store: EventStore }) => store.close(),
  });
  const { subject, baseline } = await compareRates(
    MESSAGES,
    importTrial(true),
    {
      prepare: () => new Database(source, { readonly: true, fileMustExist: true }),
      work: (db) => {
        let count = 0;
        for (const row of db.prepare('SELECT * FROM messages ORDER BY id').iterate()) if (row) count += 1;
        if (count !== MESSAGES) throw new Error(`read ${count} rows`);
      },
      cleanup: (db) => {
        db.close();
      },
    },
    RUNS,
  );
  const plainInserts = {
    prepare: () => ({ db: new Database(source, { readonly: true, fileMustExist: true }), out: openPlain(dir.file(`plain-${(run += 1)}.sqlite`), 'NORMAL') }),
    work: ({ db, out }: { db: Database.Database; out: PlainSqlite }) => {
      let batch: Array<{ id: string; type: string; data: unknown }> = [];
      let revision = 0;
      for (const row of db.prepare('SELECT * FROM messages ORDER BY id').iterate() as Iterable<{ id: number }>) {
        batch.push({ id: `hm-${row.id}`, type: 'message.appended', data: row });
        if (batch.length === 1000) {
          out.insertBatch('session-bench', revision, batch);
          revision += batch.length;
          batch = [];
        }
      }
      if (batch.length > 0) out.insertBatch('session-bench', revision, batch);
    },
    cleanup: ({ db, out }: { db: Database.Database; out: PlainSqlite }) => {
      db.close();
      out.close();
    },
  };
  const plain = await compareRates(MESSAGES, importTrial(true), plainInserts, RUNS);
  const oneThread = await compareRates(MESSAGES, importTrial(false), plainInserts, RUNS);
  dir.remove();
  return [
    compared(
      `hermes import (split, as the CLI by default): the same ${MESSAGES.toLocaleString('en-US')} messages against plain batched inserts (issue 16: ratio >= 0.3)`,
      'messages/s',
      plain.subject,
      'plain better-sqlite3 read + insert, 1,000 rows a transaction',
      plain.baseline,
    ),
    compared(
      `hermes import on one thread (--threads 1): the same ${MESSAGES.toLocaleString('en-US')} messages against plain batched inserts`,
      'messages/s',
      oneThread.subject,
      'plain better-sqlite3 read + insert, 1,000 rows a transaction',
      oneThread.baseline,
    ),
    compared(
      `hermes import: one ${MESSAGES.toLocaleString('en-US')}-message session into a fresh SQLite ledger (read, map, validate, hash-chain, append)`,
      'messages/s',
      subject,
      'plain better-sqlite3 read of the same rows',
      baseline,
    ),
  ];
};
