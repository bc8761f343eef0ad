import type Database from 'better-sqlite3';
import type { RecordedEvent } from '@session-ledger/core';
import { decodeSessionEventE, SESSION_PREFIX, sessionIdOf, type SessionRecord } from '@session-ledger/events';
import type { ReadModel } from '../readModel.js';
import { applyRecord } from './applyRecord.js';
import { createSearchTables, dropSearchTables } from './schema.js';
import { forgetStatements, statementsOf } from './statements.js';

/**
 * SQLite zeroes what it frees on this connection (the embedded store's own connection has it on
 * already): a rewrite's old text and an erased segment's text leave no bytes on free space.
 */
const secureDelete = (db: Database.Database): void => {
  db.pragma('secure_delete = ON');
};

/** Folds decoded session events (in commit order) into the search tables. */
export const applySearchRecords = (db: Database.Database, records: Iterable<SessionRecord>): void => {
  secureDelete(db);
  const statements = statementsOf(db);
  for (const record of records) applyRecord(statements, record);
};

/**
 * Every row derived from the segment leaves the tables: its messages, what its rewrites and rewinds
 * did to other segments' messages (each is folded again from the changes the other segments made:
 * the text and visibility the display view gives it without this segment), and its place in the
 * segment map (a conversation whose tip it was gets the erased segment's parent as its tip).
 * `secure_delete` makes SQLite zero the freed space, and the index's `secure-delete` option takes the
 * words out of its own pages, so after a checkpoint none of the segment's text is in the file.
 */
const eraseSegment = (db: Database.Database, stream: string): void => {
  const segment = sessionIdOf(stream);
  if (segment === null) return;
  secureDelete(db);
  const statements = statementsOf(db);
  const touched = statements.changes.touchedBy(segment);
  statements.changes.forget(segment);
  for (const id of touched) {
    const folded = statements.changes.fold(id);
    statements.dropText.run(id);
    if (!folded) continue;
    statements.textFrom.run(folded.textFrom, id);
    if (!folded.shown) statements.hide.run(id);
    else {
      statements.show.run(id);
      statements.addText.run(id, folded.body, folded.tools);
    }
  }
  statements.eraseText.run(segment);
  statements.eraseMessages.run(segment);
  statements.retreatTip.run(segment, segment);
  statements.eraseSegment.run(segment);
};

/**
 * Full-text search over the display history (see README). Events that are not session events, or
 * cannot be decoded, are skipped: they are not part of any display view either.
 */
export const searchModel: ReadModel = {
  name: 'search',
  // 2: search_changes, so that an erased segment's rewrites and rewinds are undone (a file of 1 is rebuilt).
  // 3: a withdrawn continuation takes the child out of the parent's conversation (applyRecord.ts).
  version: 3,
  // FTS5 writes index segments at every commit: kept inline, a single append costs ~10x a plain
  // insert (docs/benchmarks.md, "search": indexing one event a transaction, 0.10), so the next
  // search folds in what was appended since, in one transaction.
  upkeep: 'deferred',
  create: createSearchTables,
  drop(db) {
    forgetStatements(db);
    dropSearchTables(db);
  },
  apply(db, events: readonly RecordedEvent[]) {
    const records: SessionRecord[] = [];
    for (const event of events) {
      if (!event.streamName.startsWith(SESSION_PREFIX)) continue;
      const record = decodeSessionEventE(event);
      if (record._tag === 'Right') records.push(record.right);
    }
    applySearchRecords(db, records);
  },
  erase: eraseSegment,
};
