import type Database from 'better-sqlite3';
import { mapSqliteError } from './errors.js';
import { turnScheduler, type FlushScheduler } from './flushScheduler.js';

interface Queued {
  work: () => unknown;
  committed: ((value: never) => void) | undefined;
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Thrown inside a group run without savepoints when one append failed: run the group again, isolated. */
const RETRY = new Error('group commit: an append failed; run the group again under savepoints');

export interface GroupCommit {
  /**
   * Queues `work` (plain statements, no transaction of its own) for the next shared transaction;
   * resolves with its result once that transaction has committed, or rejects with its own error
   * (only its own writes are undone: the group runs again with a SAVEPOINT per append).
   * `committed` runs synchronously after the COMMIT, before any other write can start.
   */
  submit<T>(work: () => T, committed?: (value: T) => void): Promise<T>;
  /** Commits whatever is queued now: before a delete or close, so writes keep their call order. */
  flush(): void;
}

/**
 * Group commit: every append submitted in one turn of the event loop (or, under the store's eager
 * scheduler at synchronous=NORMAL, a lone awaited append at once: flushScheduler.ts; better-sqlite3 is
 * synchronous, so a commit in progress holds the turn and later arrivals join the next group) is
 * decided and written in arrival order inside one `BEGIN IMMEDIATE` ... `COMMIT`, and every
 * caller is answered after that COMMIT returned: durable at the connection's `synchronous`
 * setting, with one WAL sync per group instead of one per append.
 */
/**
 * `onRollback`: after a group's transaction failed as a whole (BEGIN or COMMIT, or a lone append refused).
 * `scheduler`: when a group is flushed; by default in the check phase of the turn (flushScheduler.ts).
 */
export const groupCommit = (
  db: Database.Database,
  onCommit?: (appends: number) => void,
  onRollback?: () => void,
  scheduler: FlushScheduler = turnScheduler(),
): GroupCommit => {
  let queue: Queued[] = [];
  let scheduled = false;

  const inSavepoint = db.transaction((work: () => unknown) => work());

  /**
   * The group without savepoints (two statements an append fewer: benchmark row "group commit: 32
   * concurrent writers in process"). Any failure rolls the whole transaction back (RETRY), and the
   * group runs again under `isolated`, where only the failing append is undone: so a refused
   * append still fails only its caller, at the price of running its group twice. Alone in its
   * transaction, an append needs no savepoint either way: its failure rolls back only itself.
   */
  const runTogether = db.transaction((group: Queued[]): Outcome[] => {
    const outcomes: Outcome[] = [];
    for (const item of group) {
      try {
        outcomes.push({ ok: true, value: item.work() });
      } catch (error) {
        // SQLite rolled the whole transaction back (disk full, I/O error): the group fails as one.
        if (!db.inTransaction || group.length === 1) throw error;
        throw RETRY;
      }
    }
    return outcomes;
  });

  const isolated = db.transaction((group: Queued[]): Outcome[] =>
    group.map((item) => {
      try {
        return { ok: true, value: inSavepoint(item.work) };
      } catch (error) {
        // SQLite rolled the whole transaction back (disk full, I/O error): the group fails as one.
        if (!db.inTransaction) throw error;
        return { ok: false, error };
      }
    }),
  );

  const runGroup = (group: Queued[]): Outcome[] => {
    try {
      return runTogether.immediate(group);
    } catch (error) {
      if (error !== RETRY) throw error;
      onRollback?.(); // what the rolled-back appends left in memory (the log's last tile)
      return isolated.immediate(group);
    }
  };

  const flush = (): void => {
    if (queue.length === 0) return;
    const group = queue;
    queue = [];
    scheduler.flushed(group.length);
    let outcomes: Outcome[];
    try {
      outcomes = runGroup(group);
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
          scheduler.schedule(scheduledFlush);
        }
      }),
    flush,
  };
};
