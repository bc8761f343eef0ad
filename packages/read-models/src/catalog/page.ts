import type Database from 'better-sqlite3';
import { invalidInput } from '@session-ledger/core';
import { toCatalogRow, type CatalogRow, type ConversationRow } from './row.js';

export interface PageQuery {
  /** 1..200; default 50. */
  limit?: number;
  /** The opaque `nextCursor` of the previous page. */
  cursor?: string | null;
  source?: string;
  /** true: only conversations a turn holds now; false: only the others. */
  live?: boolean;
  /** Only conversations active at or after this time. */
  since?: Date;
  /** When liveness is judged. */
  now: Date;
}

export interface CatalogPage {
  sessions: CatalogRow[];
  nextCursor: string | null;
}

const encodeCursor = (row: ConversationRow) => Buffer.from(JSON.stringify([row.last_ms, row.root_id])).toString('base64url');

const decodeCursor = (cursor: string): [number, string] => {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string') return value as [number, string];
  } catch {
    // falls through to the refusal
  }
  throw invalidInput(`cursor is not one this ledger gave: ${JSON.stringify(cursor.slice(0, 80))}`, 'cursor');
};

/**
 * One page of the catalog, newest last activity first (ties by root id), by a keyset cursor on
 * (last activity, root id): an index range scan, however many conversations there are.
 */
export const catalogPage = (db: Database.Database, query: PageQuery): CatalogPage => {
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw invalidInput(`limit must be an integer from 1 to 200: ${limit}`, 'limit');
  const where: string[] = [];
  const params: Array<string | number> = [];
  if (query.cursor !== null && query.cursor !== undefined) {
    const [lastMs, rootId] = decodeCursor(query.cursor);
    where.push('(last_ms < ? OR (last_ms = ? AND root_id > ?))');
    params.push(lastMs, lastMs, rootId);
  }
  if (query.source !== undefined) {
    where.push('source = ?');
    params.push(query.source);
  }
  const nowMs = query.now.getTime();
  if (query.live === true) {
    where.push('live_until > ?');
    params.push(nowMs);
  } else if (query.live === false) {
    where.push('(live_until IS NULL OR live_until <= ?)');
    params.push(nowMs);
  }
  if (query.since !== undefined) {
    where.push('last_ms >= ?');
    params.push(query.since.getTime());
  }
  const sql = `SELECT * FROM catalog ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY last_ms DESC, root_id LIMIT ?`;
  const rows = db.prepare(sql).all(...params, limit + 1) as ConversationRow[];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { sessions: page.map((row) => toCatalogRow(row, nowMs)), nextCursor: more ? encodeCursor(page[page.length - 1]!) : null };
};
