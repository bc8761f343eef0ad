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
