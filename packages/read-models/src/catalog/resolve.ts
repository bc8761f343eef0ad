import type Database from 'better-sqlite3';
import { invalidInput, ledgerError, notFound } from '@session-ledger/core';
import { SAFE_ID } from '@session-ledger/events';

export const MIN_PREFIX = 4;
const SHOWN = 10;

/**
 * A session id as a person types it: a segment's full id (returned as is, stored or not: the
 * reader then says what it is), else a unique id prefix of at least 4 characters (the segment it
 * names), else an exact title (the conversation's tip, which resumes all of it and takes writes).
 * Several matches are `ambiguous`, with the candidates; none is `not_found`. An empty or blank
 * selector is invalid_input, never the title of a conversation titled "": `sessions delete "$ID"
 * --yes` with an unset variable deleted it (outside test, session 23).
 */
export const resolveSession = (db: Database.Database, selector: string): string => {
  if (selector.trim() === '') throw invalidInput(`A session selector is ${selector === '' ? 'empty' : 'blank'}: give an id, a unique id prefix (${MIN_PREFIX}+ characters) or a title`, 'id');
  if (db.prepare('SELECT 1 FROM catalog_segments WHERE id = ?').get(selector) !== undefined) return selector;
  const found = new Set<string>();
  if (selector.length >= MIN_PREFIX) {
    const byPrefix = db
      .prepare("SELECT id FROM catalog_segments WHERE id >= ? AND id < ? || char(1114111) AND root_id IS NOT NULL ORDER BY id LIMIT ?")
      .pluck()
      .all(selector, selector, SHOWN + 1) as string[];
    for (const id of byPrefix) found.add(id);
  }
  const byTitle = db.prepare('SELECT tip_id FROM catalog WHERE title = ? ORDER BY root_id LIMIT ?').pluck().all(selector, SHOWN + 1) as string[];
  for (const id of byTitle) found.add(id);
  if (found.size === 1) return [...found][0]!;
  if (found.size === 0) {
    // Not in the catalog: the id itself, so the reader answers not_found (or a deleted session's own
    // error). A selector no id can be (a title with a space) names nothing: not_found, not a malformed
    // id (exit 2, 400), which a deleted conversation's title was answered (outside test, session 35, helper-97 F3).
    if (!SAFE_ID.test(selector)) throw notFound('session (id, id prefix or title)', selector.length > 200 ? `${selector.slice(0, 200)}…` : selector);
    return selector;
  }
  const candidates = [...found].slice(0, SHOWN);
  throw ledgerError('ambiguous', `${JSON.stringify(selector)} matches ${found.size > SHOWN ? `more than ${SHOWN}` : found.size} sessions: ${candidates.join(', ')}`, {
    selector,
    candidates,
  });
};
