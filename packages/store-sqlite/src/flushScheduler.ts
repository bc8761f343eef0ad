/** When a group commit runs its queued appends (see groupCommit.ts). */
export interface FlushScheduler {
  /** Schedules `flush` for a group just opened (its first append was queued). */
  schedule(flush: () => void): void;
  /** Called by the flush after its group, which carried `appends` appends, was committed or failed. */
  flushed(appends: number): void;
}

/** How many groups in a row may commit without a turn of the event loop (other I/O waits meanwhile). */
export const EAGER_PER_TURN = 16;

/**
 * `setImmediate` for every group: a group collects every append submitted until the check phase of
 * the event loop's turn, including those of I/O callbacks (HTTP requests) arriving in that turn.
 */
export const turnScheduler = (): FlushScheduler => ({ schedule: (flush) => void setImmediate(flush), flushed: () => {} });

/**
 * Lone appends without the event loop's turn, groups as before (synchronous=NORMAL only: the store
 * uses `turnScheduler` under FULL, where a commit's fsync dwarfs the turn and every extra commit costs one).
 *
 * A caller awaiting each append before the next (a single writer, the bench row "single-event appends
 * with the log commitment") gets its group flushed in a microtask: `setImmediate`'s turn cost ~7 us of
 * an append's ~60 us of CPU. Appends that would share a commit keep `setImmediate`:
 * - after a group that carried more than one append (concurrent writers: in process, or HTTP
 *   requests under load): the turn is what gathers them, and every group stays shared until one
 *   carries a single append again;
 * - after a microtask-flushed group in this turn, when the microtask queue has drained since (a
 *   `process.nextTick` says so): the submit comes from another callback of the same turn (another
 *   HTTP request), not from a caller continuing after its answer, so it waits for the turn and
 *   gathers the rest of the turn's requests;
 * - after EAGER_PER_TURN microtask-flushed groups without a turn: a writer looping over awaited
 *   appends then lets timers and I/O run, as every append did before.
 * Appends submitted in one synchronous run (a `Promise.all`) share a group either way: the
 * microtask runs after them.
 */
export const eagerScheduler = (): FlushScheduler => {
  let eagerThisTurn = 0;
  let turnPending = false;
  let drained = true;
  let drainPending = false;
  let shared = false;

  const turned = (): void => {
    turnPending = false;
    eagerThisTurn = 0;
  };
  const drainedNow = (): void => {
    drainPending = false;
    drained = true;
  };

  return {
    schedule(flush) {
      const eager = !shared && eagerThisTurn < EAGER_PER_TURN && (eagerThisTurn === 0 || !drained);
      if (!eager) {
        setImmediate(flush);
        return;
      }
      eagerThisTurn += 1;
      if (!turnPending) {
        turnPending = true;
        setImmediate(turned);
      }
      queueMicrotask(flush);
    },
    flushed(appends) {
      shared = appends > 1;
      drained = false;
      if (!drainPending) {
        drainPending = true;
        process.nextTick(drainedNow);
      }
    },
  };
};
