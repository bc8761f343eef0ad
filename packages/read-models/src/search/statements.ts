import type Database from 'better-sqlite3';
import { changeLog } from './changes.js';

type Run<P extends unknown[]> = Database.Statement<P, unknown>;
type Get<P extends unknown[], R> = Database.Statement<P, R>;

export interface Statements {
  segment: Get<[string], { root: string; tip: string; revision: number }>;
  addSegment: Run<[string, string, string | null, string, string | null, number]>;
  retreatTip: Run<[string, string]>;
  folded: Run<[number, string]>;
  moveTip: Run<[string, string]>;
  message: Get<[string, string], { id: number; shown: number; segment: string }>;
  addMessage: Run<[string, string, string, string, string, string]>;
  addText: Run<[number | bigint, string, string]>;
  rewriteText: Run<[string, number]>;
  textFrom: Run<[string, number]>;
  hide: Run<[number]>;
  show: Run<[number]>;
  dropText: Run<[number]>;
  eraseText: Run<[string]>;
  eraseMessages: Run<[string]>;
  eraseSegment: Run<[string]>;
  detachSegments: Run<[{ child: string; root: string }]>;
  detachMessages: Run<[string, string]>;
  changes: ReturnType<typeof changeLog>;
}

const prepare = (db: Database.Database): Statements => ({
  segment: db.prepare<[string], { root: string; tip: string; revision: number }>('SELECT root, tip, revision FROM search_segments WHERE segment = ?'),
  addSegment: db.prepare<[string, string, string | null, string, string | null, number]>('INSERT INTO search_segments (segment, root, parent, tip, source, revision) VALUES (?, ?, ?, ?, ?, ?)'),
  /** An erased tip: its conversation's tip goes back to the erased segment's parent. */
  retreatTip: db.prepare<[string, string]>(
    'UPDATE search_segments SET tip = (SELECT e.parent FROM search_segments e WHERE e.segment = search_segments.tip) WHERE tip = ? AND segment <> ?',
  ),
  folded: db.prepare<[number, string]>('UPDATE search_segments SET revision = ? WHERE segment = ?'),
  moveTip: db.prepare<[string, string]>('UPDATE search_segments SET tip = ? WHERE segment = ?'),
  message: db.prepare<[string, string], { id: number; shown: number; segment: string }>('SELECT id, shown, segment FROM search_messages WHERE root = ? AND message_id = ?'),
  addMessage: db.prepare<[string, string, string, string, string, string]>(
    'INSERT OR IGNORE INTO search_messages (root, message_id, segment, text_from, role, at, shown) VALUES (?, ?, ?, ?, ?, ?, 1)',
  ),
  addText: db.prepare<[number | bigint, string, string]>('INSERT INTO search_text (rowid, body, tools) VALUES (?, ?, ?)'),
  rewriteText: db.prepare<[string, number]>('UPDATE search_text SET body = ? WHERE rowid = ?'),
  textFrom: db.prepare<[string, number]>('UPDATE search_messages SET text_from = ? WHERE id = ?'),
  hide: db.prepare<[number]>('UPDATE search_messages SET shown = 0 WHERE id = ?'),
  show: db.prepare<[number]>('UPDATE search_messages SET shown = 1 WHERE id = ?'),
  dropText: db.prepare<[number]>('DELETE FROM search_text WHERE rowid = ?'),
  eraseText: db.prepare<[string]>('DELETE FROM search_text WHERE rowid IN (SELECT id FROM search_messages WHERE segment = ?)'),
  eraseMessages: db.prepare<[string]>('DELETE FROM search_messages WHERE segment = ?'),
  eraseSegment: db.prepare<[string]>('DELETE FROM search_segments WHERE segment = ?'),
  /** A withdrawn continuation: the child and the compression chain below it (in the old root) leave the old root's conversation, the child their root. */
  detachSegments: db.prepare<[{ child: string; root: string }]>(
    `WITH RECURSIVE chain(segment) AS (SELECT @child UNION SELECT s.segment FROM search_segments s JOIN chain c ON s.parent = c.segment WHERE s.root = @root)
     UPDATE search_segments SET root = @child WHERE segment IN chain`,
  ),
  /** Then their messages follow them (by segment: a segment holds its messages under its root). */
  detachMessages: db.prepare<[string, string]>('UPDATE search_messages SET root = ? WHERE segment IN (SELECT segment FROM search_segments WHERE root = ?)'),
  changes: changeLog(db),
});

const cache = new WeakMap<Database.Database, Statements>();

/** Prepared once per connection (the tables must exist: create runs first). */
export const statementsOf = (db: Database.Database): Statements => {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = prepare(db)));
  return statements;
};

/** After drop and create the old statements point at dropped tables. */
export const forgetStatements = (db: Database.Database): void => {
  cache.delete(db);
};
