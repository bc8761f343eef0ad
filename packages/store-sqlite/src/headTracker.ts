import type Database from 'better-sqlite3';

export interface HeadTracker {
  /** After a COMMIT that wrote `stream` up to `revision` (called synchronously by the group commit). */
  wrote(stream: string, revision: bigint): void;
  /** Before a delete or tombstone of `stream` through this connection. */
  forget(stream: string): void;
  /** EventStore.unchangedSince: this connection wrote `revision` last, and no other connection moved the stream since (with `hint`: since this macrotask's look). */
  unchangedSince(stream: string, revision: bigint, hint?: boolean): boolean;
}

/** A stream's row as the store reads it (sqliteStore.ts `streamState`). */
export interface HeadState {
  lastRevision: bigint;
  firstLive: bigint;
  tombstoned: boolean;
}

/**
 * The last revision this connection committed per stream, with the `PRAGMA data_version` seen
 * before that commit. `data_version` moves on every commit of another connection (another process,
 * or another store on the same file): while it has not moved since, the head is the stream's state.
 * When it has, the stream's own row is read (one indexed SELECT, `stateOf`) and the head is kept
 * only if it still says `revision`, live and not tombstoned: so several processes on one file
 * (`serve --workers N`, each writing its own clients' sessions) keep their heads across each
 * other's commits instead of re-reading every session. Lets the command handler skip its catch-up
 * read of a stream (benchmark rows "group commit: 32 concurrent writers in process" and "HTTP
 * appends, 32 keep-alive clients"). Any doubt answers false: a read, as before.
 *
 * Asked with `hint` (the command handler's write path), `data_version` is read at most once a
 * macrotask: the read is a read transaction of its own (about 2 us of WAL locking, 15 % of an
 * append in the row "group commit: 32 concurrent writers in process"). Another connection's commit
 * within the same macrotask can then go unseen until the next one, so such a `true` is a hint: the
 * handler appends conditional on exactly that revision, which the store checks inside its write
 * transaction (a stream another connection moved, soft deleted or tombstoned since refuses it), and
 * decides a refusal or a no-op again on an answer without `hint`, which reads `data_version` anew.
 */
export const headTracker = (db: Database.Database, stateOf: (stream: string) => HeadState | undefined): HeadTracker => {
  const version = db.prepare('PRAGMA data_version').pluck();
  const heads = new Map<string, { revision: bigint; version: number }>();
  /** The last data_version read: a head written after it was read is current while it has not moved. */
  let seen = version.get() as number;
  /** Capacity like the handler's cache: a long-lived server writing many sessions stays bounded. */
  const CAPACITY = 4096;
  /** Whether `seen` was read in this macrotask. */
  let fresh = false;
  const look = (hint: boolean): number => {
    if (hint && fresh) return seen;
    seen = version.get() as number; // a read transaction of its own: sees every commit made so far
    if (!fresh) {
      fresh = true;
      setImmediate(() => {
        fresh = false;
      }).unref();
    }
    return seen;
  };

  return {
    wrote(stream, revision) {
      heads.delete(stream);
      heads.set(stream, { revision, version: seen });
      if (heads.size > CAPACITY) heads.delete(heads.keys().next().value!);
    },
    forget(stream) {
      heads.delete(stream);
    },
    unchangedSince(stream, revision, hint = false) {
      const head = heads.get(stream);
      if (!db.open || head?.revision !== revision) return false;
      if (head.version === look(hint)) return true;
      const state = stateOf(stream);
      if (state && !state.tombstoned && state.lastRevision === revision && state.firstLive <= revision) {
        head.version = seen;
        return true;
      }
      heads.delete(stream);
      return false;
    },
  };
};
