export interface RetryOptions {
  /** Attempts per event before the subscriber is parked. Default 5. */
  attempts: number;
  /** First wait; doubled after each failure up to maxDelayMs. Default 100. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The one error policy of every durable subscriber (memory providers included). */
export const DEFAULT_SUBSCRIBER_RETRY: RetryOptions = { attempts: 5, baseDelayMs: 100, maxDelayMs: 5000 };

export const backoffDelay = (retry: RetryOptions, failures: number): number =>
  Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** Math.max(0, failures - 1));

/** Resolves after `ms`, or at once when the signal aborts. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
