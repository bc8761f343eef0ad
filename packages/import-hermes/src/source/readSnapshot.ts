import type Database from 'better-sqlite3';
import * as E from 'fp-ts/lib/Either.js';
import type { HermesMessage, HermesSnapshot } from '../model.js';
import { openSource, type OpenSourceOptions } from './openSource.js';
import { orderSessions } from './orderSessions.js';
import { messageLayout, toMessage, toSession } from './rows.js';
import { describeSchema } from './schema.js';
import { classifySqliteError } from './sourceError.js';

const readInside = (db: Database.Database, path: string): HermesSnapshot => {
  const schema = describeSchema(db, path);
  if (E.isLeft(schema)) throw schema.left;
  const sessions = (db.prepare('SELECT * FROM sessions').safeIntegers(true).all() as Array<Record<string, unknown>>).map(
    toSession,
  );
  const messages = new Map<string, HermesMessage[]>();
  let messageCount = 0;
  const rows = db.prepare('SELECT * FROM messages ORDER BY id').safeIntegers(true).raw(true);
  const layout = messageLayout(rows.columns().map((c) => c.name), schema.right.hasRowFlags);
  for (const cells of rows.iterate() as Iterable<unknown[]>) {
    const message = toMessage(cells, layout);
    const list = messages.get(message.sessionId);
    if (list) list.push(message);
    else messages.set(message.sessionId, [message]);
    messageCount += 1;
  }
  return { path, schema: schema.right, sessions: orderSessions(sessions), messages, messageCount };
};

/**
 * Reads the whole file in one read transaction (BEGIN … COMMIT), so sessions and messages come from
 * one consistent snapshot even while Hermes writes to it in WAL mode. The file is closed before returning.
 */
export const readSnapshot = (path: string, options: OpenSourceOptions = {}): HermesSnapshot => {
  const db = openSource(path, options);
  try {
    db.exec('BEGIN');
    try {
      return readInside(db, path);
    } finally {
      if (db.inTransaction) db.exec('COMMIT');
    }
  } catch (error) {
    if ((error as { type?: string }).type === 'import_source_invalid') throw error;
    throw classifySqliteError(path, error);
  } finally {
    db.close();
  }
};
