import type Database from 'better-sqlite3';

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Switches a file to WAL. The switch needs the file to itself, and SQLite answers SQLITE_BUSY
 * without waiting when another process is opening the same new file at that moment; so it is
 * retried until the busy timeout. Once a file is in WAL mode the switch is a no-op.
 */
export const enableWal = (db: Database.Database, timeoutMs: number): void => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      pause(10);
    }
  }
};
