import type Database from 'better-sqlite3';

/** What one segment did to a message: appended it (its text), rewrote its content, or rewound it. */
export type ChangeKind = 'append' | 'rewrite' | 'rewind';

interface Change {
  segment: string;
  kind: ChangeKind;
  body: string | null;
  tools: string | null;
}

/** A message's state as the display fold leaves it after `changes`, in order (applyRecord.ts's rules). */
export interface Folded {
  shown: boolean;
  body: string;
  tools: string;
  /** The segment whose change wrote the text. */
  textFrom: string;
}

/** A rewrite replaces the content (tools stay); a rewind hides the message for good; the text is remembered hidden or not. */
export const foldChanges = (changes: readonly Change[]): Folded | undefined => {
  let folded: Folded | undefined;
  for (const change of changes) {
    if (change.kind === 'append') folded = { shown: true, body: change.body ?? '', tools: change.tools ?? '', textFrom: change.segment };
    else if (!folded) continue;
    else if (change.kind === 'rewrite') folded = { ...folded, body: change.body ?? '', textFrom: change.segment };
    else folded = { ...folded, shown: false };
  }
  return folded;
};

/**
 * The change history of messages a rewrite or rewind touched: a message gets its append's row (its
 * text then) before its first such change, so that erasing a later segment can give it back the text
 * and visibility the remaining segments give it, as the display view does (search README).
 */
export const changeLog = (db: Database.Database) => {
  const count = db.prepare<[number], number>('SELECT count(*) FROM search_changes WHERE message = ?').pluck();
  const add = db.prepare<[number, string, string, string | null, string | null]>('INSERT INTO search_changes (message, segment, kind, body, tools) VALUES (?, ?, ?, ?, ?)');
  const text = db.prepare<[number], { body: string; tools: string }>('SELECT body, tools FROM search_text WHERE rowid = ?');
  const of = db.prepare<[number], Change>('SELECT segment, kind, body, tools FROM search_changes WHERE message = ? ORDER BY seq');
  const touched = db.prepare<[string, string], number>(
    'SELECT DISTINCT c.message FROM search_changes c JOIN search_messages m ON m.id = c.message WHERE c.segment = ? AND m.segment <> ?',
  ).pluck();
  const forget = db.prepare<[string, string]>('DELETE FROM search_changes WHERE segment = ? OR message IN (SELECT id FROM search_messages WHERE segment = ?)');
  return {
    /** Before a rewrite or rewind of message `id` (appended by `appendedIn`): its append's row first, once. */
    record(id: number, appendedIn: string, segment: string, kind: Exclude<ChangeKind, 'append'>, body: string | null): void {
      if (count.get(id) === 0) {
        const current = text.get(id);
        add.run(id, appendedIn, 'append', current?.body ?? '', current?.tools ?? '');
      }
      add.run(id, segment, kind, body, null);
    },
    /** The messages of other segments that `segment` changed. */
    touchedBy: (segment: string): number[] => touched.all(segment, segment),
    /** Drops the changes `segment` made and those of its own messages. */
    forget: (segment: string): void => void forget.run(segment, segment),
    fold: (id: number): Folded | undefined => foldChanges(of.all(id)),
  };
};
