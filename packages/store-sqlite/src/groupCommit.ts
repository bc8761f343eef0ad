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
 * Waiting for the write lock without holding the event loop, while other connections write (see
 * `groupCommit`'s `lock`).
 */
export interface LockWait {
  /** True when another connection committed since the last group: the lock is worth trying without waiting. */
  contended(): boolean;
  /** The connection's busy timeout: how long a group waits for the lock in all. */
  timeoutMs: number;
}

/** How long a group that found the lock taken retries on the next turn before it waits a millisecond between tries. */
const TURN_RETRIES_MS = 1;

const isBusy = (error: unknown): boolean => String((error as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY');

/**
 * `onRollback`: after a group's transaction failed as a whole (BEGIN or COMMIT, or a lone append refused).
 * `scheduler`: when a group is flushed; by default in the check phase of the turn (flushScheduler.ts).
 * `lock`: when another connection has been writing, a scheduled group tries the write lock without
 * SQLite's busy handler, which sleeps inside the call (1 ms, then 2, 5, ...) and holds the process:
 * found taken, the group goes back to the head of the queue and is tried again on the next turn,
 * while requests keep arriving and join it (benchmark row "group commit: HTTP appends ... serve
 * --workers 2": the two processes slept 1,251 times in 25,600 messages).
 */
export const groupCommit = (
  db: Database.Database,
  onCommit?: (appends: number) => void,
  onRollback?: () => void,
  scheduler: FlushScheduler = turnScheduler(),
  lock?: LockWait,
): GroupCommit => {
  let queue: Queued[] = [];
  let scheduled = false;
  /** Since when the queue's oldest group has found the lock taken; null while it has not. */
  let waitingSince: number | null = null;

  // Run with exec each time, never prepared: SQLite sets busy_timeout when the PRAGMA is compiled (pragma.c), not when it runs.
  const noWait = (): void => void db.exec('PRAGMA busy_timeout = 0');
  const usualWait = (): void => void db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(lock?.timeoutMs ?? 0))}`);
  let trying = false;
  /** Inside the transaction, first: the lock is held, so later statements wait as usual again. */
  const began = (): void => {
    if (!trying) return;
    trying = false;
    usualWait();
  };

  const inSavepoint = db.transaction((work: () => unknown) => work());

  /**
   * The group without savepoints (two statements an append fewer: benchmark row "group commit: 32
   * concurrent writers in process"). Any failure rolls the whole transaction back (RETRY), and the
   * group runs again under `isolated`, where only the failing append is undone: so a refused
   * append still fails only its caller, at the price of running its group twice. Alone in its
   * transaction, an append needs no savepoint either way: its failure rolls back only itself.
   */
  const runTogether = db.transaction((group: Queued[]): Outcome[] => {
    began();
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
      began();
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

  /** Runs `flush` again soon: on the next turn for the first millisecond, then every millisecond. */
  const retry = (): void => {
    scheduled = true;
    if (Date.now() - waitingSince! < TURN_RETRIES_MS) setImmediate(scheduledFlush);
    else setTimeout(scheduledFlush, 1);
  };

  /**
   * `mode`: `wait` in SQLite's busy handler; `try`: take the write lock only if it is free now, else
   * put the group back at the head of the queue and try again soon; `last`: as `try`, but a lock
   * still taken fails the group as SQLite's busy timeout would.
   */
  const flush = (mode: 'wait' | 'try' | 'last' = 'wait'): void => {
    if (queue.length === 0) return;
    const group = queue;
    queue = [];
    scheduler.flushed(group.length);
    let outcomes: Outcome[];
    try {
      if (mode !== 'wait') {
        trying = true;
        noWait();
      }
      outcomes = runGroup(group);
    } catch (error) {
      if (trying) {
        // BEGIN IMMEDIATE found the lock taken: nothing ran. The group waits at the head of the queue.
        trying = false;
        usualWait();
        if (isBusy(error) && mode === 'try') {
          queue = group.concat(queue);
          waitingSince ??= Date.now();
          return retry();
        }
      }
      // BEGIN or COMMIT failed, or a lone append was refused: nothing of the group is stored,
      // and every caller in it hears the error.
      waitingSince = null;
      onRollback?.();
      const failure = mapSqliteError(error);
      for (const item of group) item.reject(failure);
      return;
    }
    waitingSince = null;
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
    if (waitingSince !== null) {
      // Past the busy timeout, a lock still taken fails the group, as SQLite's busy handler would.
      flush(Date.now() - waitingSince >= lock!.timeoutMs ? 'last' : 'try');
    } else flush(lock?.contended() ? 'try' : 'wait');
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
    flush: () => flush(),
  };
};
