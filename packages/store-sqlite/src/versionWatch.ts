import type Database from 'better-sqlite3';

/** Whether another connection committed since this one last looked (see versionWatch). */
export interface VersionWatch {
  /** Inside the write transaction: true when another connection committed since the last call, or on the first call. */
  moved(): boolean;
}

/**
 * `PRAGMA data_version` moves on every commit of another connection (another process, or another
 * store on the same file), never on this connection's own. Read inside the write transaction it
 * tells whether one committed since the last look: no other can commit while this one holds the
 * write lock. One read an append, shared by what the store keeps between its appends (the stream
 * states, the next position and the log size), instead of one each (benchmark row "sqlite
 * single-event appends with the log commitment", issue 13: >= 0.7 of plain).
 */
export const versionWatch = (db: Database.Database): VersionWatch => {
  const version = db.prepare('PRAGMA data_version').pluck();
  let seen: number | undefined;
  return {
    moved() {
      const now = version.get() as number;
      const moved = now !== seen;
      seen = now;
      return moved;
    },
  };
};
