import type Database from 'better-sqlite3';
import { metaPosition } from './damaged.js';

/** Where an idempotent retry under expectedRevision 'any' finds an event id (see idIndex). */
export interface IdIndex {
  /** Inside the write transaction: the lowest revision >= `from` of `stream` holding `id`, indexed yet or not. */
  revisionOf(stream: string, id: string, from: bigint): bigint | undefined;
  /**
   * After an append's inserts, in its transaction: its events' ids (from `firstRevision` on) and
   * its last position. Indexes the backlog when it is due.
   */
  wrote(stream: string, firstRevision: bigint, events: ReadonlyArray<{ id: string }>, last: bigint): void;
  /** Drops what is kept: after a rollback, after another connection's commit. */
  forget(): void;
}

/** Events left unindexed before an append indexes them all, in one sorted insert. */
export const ID_BATCH = 256;
/** Backlog rows a lookup may read from the events table before the append that made it indexes the backlog. */
const READ_LIMIT = 16;

/**
 * Schema version 6: an event's id reaches `indexed_ids (stream, id, revision)` in batches, not by a
 * trigger on every insert. Ids are random, so each one lands on its own page of that b-tree: one
 * page more in every commit's WAL frames, about a fifth of a single append's cost (benchmark row
 * "sqlite single-event appends with the log commitment", issue 13: >= 0.7 of plain).
 *
 * Every event at or below the position `ids.indexed_through` (ledger_meta) is indexed; those above
 * it, the backlog, are found in memory: read once from the events table (a range of positions),
 * then kept current by this connection's appends, and dropped like the stream states when another
 * connection commits, a transaction rolls back or the backlog is indexed. An append whose backlog
 * reached ID_BATCH events, or whose lookup had to read more than READ_LIMIT of them (writers taking
 * turns on one file), indexes the whole backlog in its own transaction. Nothing here is audited:
 * the index only answers retries.
 */
export const idIndex = (db: Database.Database): IdIndex => {
  const readThrough = db.prepare(`SELECT value FROM ledger_meta WHERE key = 'ids.indexed_through'`).pluck();
  const storeThrough = db.prepare(`UPDATE ledger_meta SET value = ? WHERE key = 'ids.indexed_through'`);
  const indexed = db
    .prepare('SELECT revision FROM indexed_ids WHERE stream = ? AND id = ? AND revision >= ? ORDER BY revision LIMIT 1')
    .pluck()
    .safeIntegers(true);
  const readBacklog = db.prepare('SELECT stream, id, revision FROM events WHERE position > ? ORDER BY position').raw(true).safeIntegers(true);
  // INSERT OR IGNORE: an id another connection indexed (it read the same backlog) is already there.
  const indexBacklog = db.prepare('INSERT OR IGNORE INTO indexed_ids (stream, id, revision) SELECT stream, id, revision FROM events WHERE position > ? ORDER BY stream, id, revision');
  let through: bigint | undefined;
  /** The backlog by stream, then id: its lowest revision. Undefined until a lookup needs it. */
  let backlog: Map<string, Map<string, bigint>> | undefined;
  let due = false;

  const throughNow = (): bigint => (through ??= metaPosition('ids.indexed_through', readThrough.get()));
  const add = (known: Map<string, Map<string, bigint>>, stream: string, id: string, revision: bigint): void => {
    let ids = known.get(stream);
    if (ids === undefined) known.set(stream, (ids = new Map()));
    if (!ids.has(id)) ids.set(id, revision);
  };
  const backlogNow = (): Map<string, Map<string, bigint>> => {
    if (backlog !== undefined) return backlog;
    const known = new Map<string, Map<string, bigint>>();
    let read = 0;
    for (const [stream, id, revision] of readBacklog.iterate(throughNow()) as IterableIterator<[string, string, bigint]>) {
      add(known, stream, id, revision);
      read += 1;
    }
    if (read > READ_LIMIT) due = true;
    return (backlog = known);
  };

  return {
    revisionOf(stream, id, from) {
      const found = indexed.get(stream, id, from) as bigint | undefined;
      if (found !== undefined) return found;
      const revision = backlogNow().get(stream)?.get(id);
      return revision !== undefined && revision >= from ? revision : undefined;
    },
    wrote(stream, firstRevision, events, last) {
      const known = backlog;
      if (known !== undefined) events.forEach((event, index) => add(known, stream, event.id, firstRevision + BigInt(index)));
      const floor = throughNow();
      if (!due && last - floor < ID_BATCH) return;
      indexBacklog.run(floor);
      storeThrough.run(last.toString());
      through = last;
      // Read again by the next lookup (what was appended since: a few rows), so that appends at an
      // exact revision, which never look up, do not keep a map (single-append row, issue 13).
      backlog = undefined;
      due = false;
    },
    forget() {
      through = undefined;
      backlog = undefined;
      due = false;
    },
  };
};
