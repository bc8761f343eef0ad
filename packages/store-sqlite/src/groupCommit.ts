import type Database from 'better-sqlite3';
import { mapSqliteError } from './errors.js';

interface Queued {
  work: () => unknown;
  committed: ((value: never) => void) | undefined;
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface GroupCommit {
  /**
   * Queues `work` (plain statements, no transaction of its own) for the next shared transaction,
   * where it runs under its own SAVEPOINT; resolves with its result once that transaction
   * has committed, or rejects with its own error (only its savepoint is rolled back).
   * `committed` runs synchronously after the COMMIT, before any other write can start.
   */
  submit<T>(work: () => T, committed?: (value: T) => void): Promise<T>;
  /** Commits whatever is queued now: before a delete or close, so writes keep their call order. */
  flush(): void;
}

/**
 * Group commit: every append submitted in one turn of the event loop (better-sqlite3 is
 * synchronous, so a commit in progress holds the turn and later arrivals join the next group) is
 * decided and written in arrival order inside one `BEGIN IMMEDIATE` ... `COMMIT`, and every
 * caller is answered after that COMMIT returned: durable at the connection's `synchronous`
 * setting, with one WAL sync per group instead of one per append.
 */
/** `onRollback`: after a group's transaction failed as a whole (BEGIN or COMMIT, or a lone append refused). */
export const groupCommit = (db: Database.Database, onCommit?: (appends: number) => void, onRollback?: () => void): GroupCommit => {
  let queue: Queued[] = [];
  let scheduled = false;

  const inSavepoint = db.transaction((work: () => unknown) => work());

  const runGroup = db.transaction((group: Queued[]): Outcome[] => {
    // Alone in its transaction, an append needs no savepoint: its failure rolls back only itself.
    if (group.length === 1) return [{ ok: true, value: group[0]!.work() }];
    return group.map((item) => {
      try {
        return { ok: true, value: inSavepoint(item.work) };
      } catch (error) {
        // SQLite rolled the whole transaction back (disk full, I/O error): the group fails as one.
        if (!db.inTransaction) throw error;
        return { ok: false, error };
      }
    });
  });

  const flush = (): void => {
    if (queue.length === 0) return;
    const group = queue;
    queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = runGroup.immediate(group);
    } catch (error) {
      // BEGIN or COMMIT failed, or a lone append was refused: nothing of the group is stored,
      // and every caller in it hears the error.
      onRollback?.();
      const failure = mapSqliteError(error);
      for (const item of group) item.reject(failure);
      return;
    }
    outcomes.forEach((outcome, index) => {
      const item = group[index]!;
      if (outcome.ok) {
        item.committed?.(outcome.value as never);
        item.resolve(outcome.value as never);
      }
      else item.reject(mapSqliteError(outcome.error));
    });
    onCommit?.(group.length); // after the callers are settled: a throwing hook cannot strand them
  };

  const scheduledFlush = (): void => {
    scheduled = false;
    flush();
  };

  return {
    submit: <T>(work: () => T, committed?: (value: T) => void) =>
      new Promise<T>((resolve, reject) => {
        queue.push({ work, committed: committed as ((value: never) => void) | undefined, resolve: resolve as (value: never) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(scheduledFlush);
        }
      }),
    flush,
  };
};
