import { ledgerError } from '@session-ledger/core';

declare module '@session-ledger/core' {
  /** The serve command's own error code (see core's errors.ts). */
  interface ErrorDetails {
    /**
     * `serve --workers N` stopped because its worker processes kept dying: more than the budget
     * within the window after it listened, or one before it ever listened. `last`: how the last died.
     */
    workers_failing: { deaths: number; windowSeconds: number; last: string };
  }
}

/** How many worker deaths `serve --workers N` replaces within one window before it stops instead. */
export const RESTARTS_PER_WINDOW = 5;
export const RESTART_WINDOW_MS = 60_000;

/**
 * The primary's answer to a worker that died after it listened: replace it, unless more than
 * `max` died within the last `windowMs` (a crash loop: a worker that dies of what it meets, or
 * is killed by the OOM killer every time, would otherwise be restarted for ever).
 */
export const restartBudget = (max = RESTARTS_PER_WINDOW, windowMs = RESTART_WINDOW_MS) => {
  const deaths: number[] = [];
  return (now: number): 'restart' | 'stop' => {
    deaths.push(now);
    while (deaths.length > 0 && deaths[0]! <= now - windowMs) deaths.shift();
    return deaths.length > max ? 'stop' : 'restart';
  };
};

/** Why the primary stops: its workers keep dying (exit 4, like a store that cannot be reached: nothing serves). */
export const workersFailing = (last: string, deaths = RESTARTS_PER_WINDOW + 1, windowSeconds = RESTART_WINDOW_MS / 1000) =>
  ledgerError(
    'workers_failing',
    deaths === 1 ? `a worker process ${last}; stopping` : `worker processes keep dying (more than ${deaths - 1} in ${windowSeconds} s; the last, ${last}); stopping`,
    { deaths, windowSeconds, last },
  );
