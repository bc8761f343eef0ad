import type Database from 'better-sqlite3';
import { invalidInput } from '@session-ledger/core';
import { parseQuery } from './query.js';
import { marksOf } from './snippet.js';

export interface SearchOptions {
  q: string;
  /** 1..100, default 20. */
  limit?: number;
  role?: string;
  /** The conversation's source (its root's `session.started` source). */
  source?: string;
  /** ISO time: only messages timestamped at or after it. */
  since?: string;
}

export interface SearchHit {
  rootId: string;
  tipId: string;
  messageId: string;
  role: string;
  /** Plain text around the match, never HTML. */
  snippet: string;
  /** [start, end) UTF-16 offsets into `snippet` of the matched text. */
  marks: Array<[number, number]>;
  /** Larger is better (bm25 negated). */
  rank: number;
}

export interface SearchResult {
  query: string;
  hits: SearchHit[];
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_QUERY = 500;

/** A query's length in characters (code points, as JSON Schema's maxLength counts them; not UTF-16 units). */
export const codePoints = (text: string): number => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};
/** Characters of context (the snippet marks matches with char(2) and char(3), see snippet.ts) snippet() shows (the trigram tokenizer's tokens are characters). */
const SNIPPET_TOKENS = 48;

interface Row {
  root: string;
  tip: string;
  message_id: string;
  role: string;
  marked: string;
  score: number;
}

const checked = (options: SearchOptions): number => {
  if (options.q.length < 1 || codePoints(options.q) > MAX_QUERY) throw invalidInput(`q must be 1 to ${MAX_QUERY} characters`, 'q');
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalidInput(`limit must be an integer from 1 to ${MAX_LIMIT}: ${limit}`, 'limit');
  if (options.since !== undefined && Number.isNaN(Date.parse(options.since))) throw invalidInput(`since must be an ISO time: ${JSON.stringify(options.since)}`, 'since');
  return limit;
};

/** A search as SQL: checked and built on the caller's thread, so bad input is `invalid_input` wherever it then runs. */
export interface SearchStatement {
  q: string;
  sql: string;
  params: Array<string | number>;
}

/** The statement of a search. Bad input is `invalid_input`. */
export const searchStatement = (options: SearchOptions): SearchStatement => {
  const limit = checked(options);
  const parsed = parseQuery(options.q);
  const where = ['search_text MATCH ?'];
  const params: Array<string | number> = [parsed.match];
  for (const term of parsed.short) {
    where.push(`instr(lower(search_text.body || char(10) || search_text.tools), lower(?)) > 0`);
    params.push(term);
  }
  if (options.role !== undefined) (where.push('m.role = ?'), params.push(options.role));
  if (options.source !== undefined) (where.push('r.source = ?'), params.push(options.source));
  if (options.since !== undefined) (where.push('m.at >= ?'), params.push(new Date(options.since).toISOString()));
  const sql = `SELECT m.root, r.tip, m.message_id, m.role, bm25(search_text) AS score,
         snippet(search_text, -1, char(2), char(3), '…', ${SNIPPET_TOKENS}) AS marked
       FROM search_text JOIN search_messages m ON m.id = search_text.rowid JOIN search_segments r ON r.segment = m.root
       WHERE ${where.join(' AND ')} ORDER BY score LIMIT ?`;
  return { q: options.q, sql, params: [...params, limit] };
};

/** Ranked hits, best first, of a statement on `db`, a connection to the search model's tables. */
export const answerSearch = (db: Database.Database, statement: SearchStatement): SearchResult => {
  const rows = db.prepare<Array<string | number>, Row>(statement.sql).all(...statement.params);
  return {
    query: statement.q,
    hits: rows.map((row) => ({ rootId: row.root, tipId: row.tip, messageId: row.message_id, role: row.role, ...marksOf(row.marked), rank: -row.score })),
  };
};

/** Ranked hits, best first, from the search model's tables. Bad input is `invalid_input`. */
export const runSearch = (db: Database.Database, options: SearchOptions): SearchResult => answerSearch(db, searchStatement(options));
