import { isLedgerError } from './errors.js';

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

/** The one retry policy for transient store errors (SQLITE_BUSY and the like), used by every read. */
export const defaultRetryPolicy: RetryPolicy = { attempts: 5, baseDelayMs: 20 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const withRetry = async <T>(operation: () => Promise<T>, policy: RetryPolicy = defaultRetryPolicy): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (!isLedgerError(error, 'store_unavailable') || attempt >= policy.attempts) throw error;
      await sleep(policy.baseDelayMs * 2 ** (attempt - 1));
    }
  }
};
