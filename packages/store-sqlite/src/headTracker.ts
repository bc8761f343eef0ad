import type Database from 'better-sqlite3';

export interface HeadTracker {
  /** After a COMMIT that wrote `stream` up to `revision` (called synchronously by the group commit). */
  wrote(stream: string, revision: bigint): void;
  /** Before a delete or tombstone of `stream` through this connection. */
  forget(stream: string): void;
  /** EventStore.unchangedSince: this connection wrote `revision` last, and no other connection moved the stream since. */
  unchangedSince(stream: string, revision: bigint): boolean;
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
 */
export const headTracker = (db: Database.Database, stateOf: (stream: string) => HeadState | undefined): HeadTracker => {
  const version = db.prepare('PRAGMA data_version').pluck();
  const heads = new Map<string, { revision: bigint; version: number }>();
  /** The last data_version read: a head written after it was read is current while it has not moved. */
  let seen = version.get() as number;
  /** Capacity like the handler's cache: a long-lived server writing many sessions stays bounded. */
  const CAPACITY = 4096;

  return {
    wrote(stream, revision) {
      heads.delete(stream);
      heads.set(stream, { revision, version: seen });
      if (heads.size > CAPACITY) heads.delete(heads.keys().next().value!);
    },
    forget(stream) {
      heads.delete(stream);
    },
    unchangedSince(stream, revision) {
      const head = heads.get(stream);
      if (!db.open || head?.revision !== revision) return false;
      seen = version.get() as number; // a read transaction of its own: sees every commit made so far
      if (head.version === seen) return true;
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
