import type Database from 'better-sqlite3';
import * as E from 'fp-ts/lib/Either.js';
import type { HermesMessage, HermesSession, HermesSnapshot } from '../model.js';
import type { HermesSource, OrphanRows } from './hermesSource.js';
import { lineageUnits } from './lineageUnits.js';
import { openSource, type OpenSourceOptions } from './openSource.js';
import { messageLayout, toMessage, toSession } from './rows.js';
import { describeSchema } from './schema.js';
import { classifySqliteError } from './sourceError.js';
import { numberOrNull, textOrNull } from './values.js';

/** The few fields of every session the lineage needs; the full row is read with its unit. */
interface LineageRow {
  /** The row, to read it and look its messages up by its id cell as stored. */
  rowid: unknown;
  id: string;
  parentSessionId: string | null;
  startedAt: number | null;
}

export interface OpenHermesSource extends HermesSource {
  /** Ends the read transaction and closes the file. */
  close: () => void;
}

const guarded = <T>(path: string, read: () => T): T => {
  try {
    return read();
  } catch (error) {
    if ((error as { type?: string }).type === 'import_source_invalid') throw error;
    throw classifySqliteError(path, error);
  }
};

/**
 * Opens a state.db read-only inside one read transaction (BEGIN … COMMIT at close), so every unit
 * comes from one consistent snapshot even while Hermes writes to it in WAL mode, and reads it one
 * lineage unit at a time: a unit's sessions by rowid, each session's rows through Hermes' index on
 * `messages.session_id`. Peak memory is one unit's rows, whatever the size of the file.
 */
export const openHermesSource = (path: string, options: OpenSourceOptions = {}): OpenHermesSource => {
  const db: Database.Database = openSource(path, options);
  const close = () => {
    if (!db.open) return;
    try {
      if (db.inTransaction) db.exec('COMMIT');
    } catch {
      // A read transaction holds nothing to keep; on a corrupt file COMMIT reads it and fails, and that
      // failure replaced the refusal being thrown as an internal error, exit 70 (outside test, session 24).
    } finally {
      db.close();
    }
  };
  try {
    return guarded(path, () => {
      db.exec('BEGIN');
      const described = describeSchema(db, path);
      if (E.isLeft(described)) throw described.left;
      const schema = described.right;
      const column = (name: string) => (schema.sessionColumns.includes(name) ? `"${name}"` : 'NULL');
      const lineage = db
        .prepare(`SELECT rowid AS r, id, ${column('parent_session_id')} AS p, ${column('started_at')} AS t FROM sessions`)
        .safeIntegers(true)
        .all()
        .map((row): LineageRow => {
          const { r, id, p, t } = row as Record<string, unknown>;
          return { rowid: r, id: textOrNull(id) ?? '', parentSessionId: textOrNull(p), startedAt: numberOrNull(t) };
        });
      const messageCount = Number((db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n);
      const sessionRow = db.prepare('SELECT * FROM sessions WHERE rowid = ?').safeIntegers(true);
      // By the session row's own id value, compared in SQLite: an id that is not UTF-8 reads back as
      // another string (U+FFFD), which matched none of its rows, so a skipped session was reported
      // with 0 rows (outside test, session 30).
      const messageRows = db.prepare('SELECT * FROM messages WHERE session_id = (SELECT id FROM sessions WHERE rowid = ?) ORDER BY id').safeIntegers(true).raw(true);
      const layout = messageLayout(messageRows.columns().map((c) => c.name), schema.hasRowFlags);
      const readUnit = (unit: LineageRow[]): HermesSnapshot => {
        const sessions: HermesSession[] = unit.map((s) => toSession(sessionRow.get(s.rowid) as Record<string, unknown>));
        const messages = new Map<string, HermesMessage[]>();
        let count = 0;
        for (const s of unit) {
          if (messages.has(s.id)) continue;
          const rows = (messageRows.all(s.rowid) as unknown[][]).map((cells) => toMessage(cells, layout));
          if (rows.length > 0) messages.set(s.id, rows), (count += rows.length);
        }
        return { path, schema, sessions, messages, messageCount: count };
      };
      const orphans = (): OrphanRows[] =>
        guarded(path, () =>
          db
            .prepare(
              `SELECT m.sid, m.n FROM (SELECT session_id AS sid, count(*) AS n, min(id) AS first FROM messages GROUP BY session_id) AS m
               WHERE NOT EXISTS (SELECT 1 FROM sessions AS s WHERE s.id = m.sid) ORDER BY m.first`,
            )
            .all()
            .map((row) => {
              const { sid, n } = row as { sid: unknown; n: number };
              return { sessionId: textOrNull(sid) ?? '', rows: Number(n) };
            }),
        );
      return {
        path,
        schema,
        sessionCount: lineage.length,
        messageCount,
        sessionIds: () => lineage.map((s) => s.id),
        orphans,
        *units() {
          for (const unit of lineageUnits(lineage)) yield guarded(path, () => readUnit(unit));
        },
        close,
      };
    });
  } catch (error) {
    close();
    throw error;
  }
};
