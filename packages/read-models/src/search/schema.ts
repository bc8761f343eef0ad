import type Database from 'better-sqlite3';

/**
 * The search model's tables. `search_segments` maps every segment to its conversation's root (a
 * compression child belongs to its parent's root, `parent` names that parent) and keeps, on the
 * root's row, the tip and the source; `revision` is the last revision folded, so a redelivered event is not applied twice.
 * `search_messages` holds every message id of a conversation (rewound ones too, `shown = 0`, so a
 * later append under the same id stays a duplicate, as in the display fold); `text_from` is the
 * segment whose event wrote the current text (the append's or the last rewrite's), so erasing that
 * segment takes the text too. `search_text` is the FTS5 index, rowid = search_messages.id, holding
 * only shown messages. `search_changes` keeps, for each message a rewrite or a rewind touched, what
 * each segment did to it in order (its append's text first), so that erasing a segment folds the
 * message again from what the others did (changes.ts).
 */
export const TABLES = ['search_text', 'search_messages', 'search_segments', 'search_changes'] as const;

/** trigram: substrings in any script (CJK, paths, identifiers); case and diacritics folded. */
export const TOKENIZER = 'trigram remove_diacritics 1';

export const createSearchTables = (db: Database.Database): void => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS search_segments (
      segment TEXT PRIMARY KEY, root TEXT NOT NULL, parent TEXT, tip TEXT NOT NULL, source TEXT, revision INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS search_messages (
      id INTEGER PRIMARY KEY, root TEXT NOT NULL, message_id TEXT NOT NULL, segment TEXT NOT NULL,
      text_from TEXT NOT NULL, role TEXT NOT NULL, at TEXT NOT NULL, shown INTEGER NOT NULL,
      UNIQUE (root, message_id)
    );
    CREATE INDEX IF NOT EXISTS search_messages_segment ON search_messages (segment);
    CREATE INDEX IF NOT EXISTS search_messages_text_from ON search_messages (text_from);
    CREATE TABLE IF NOT EXISTS search_changes (
      seq INTEGER PRIMARY KEY, message INTEGER NOT NULL, segment TEXT NOT NULL, kind TEXT NOT NULL, body TEXT, tools TEXT
    );
    CREATE INDEX IF NOT EXISTS search_changes_message ON search_changes (message);
    CREATE INDEX IF NOT EXISTS search_changes_segment ON search_changes (segment);
    CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5 (body, tools, tokenize = '${TOKENIZER}');
  `);
  // Deleted text leaves the index's own pages at once instead of lingering until a merge.
  db.prepare(`INSERT INTO search_text (search_text, rank) VALUES ('secure-delete', 1)`).run();
};

export const dropSearchTables = (db: Database.Database): void => {
  for (const table of TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
};
