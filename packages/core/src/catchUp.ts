import type { RecordedEvent } from './envelope.js';
import type { Subscription, SubscriptionItem } from './subscription.js';

export interface CatchUpSource {
  /** Events strictly after `after` (null: from the beginning), at most `max`, in order. */
  readAfter(after: bigint | null, max: number): Promise<RecordedEvent[]>;
  /** The key that orders this source: a revision for a stream, a position for $all. */
  keyOf(event: RecordedEvent): bigint;
  /** The key of the last stored item, for a subscription that starts at 'end'. */
  head(): Promise<bigint | null>;
  /** A token that changes whenever something is appended; taken before each read. */
  changeToken(): Promise<unknown> | unknown;
  /** Resolves once the token differs from `token`, or when the signal aborts. */
  waitForChange(token: unknown, signal: AbortSignal): Promise<void>;
  accept?(event: RecordedEvent): boolean;
}

export const CATCH_UP_PAGE = 500;

/**
 * History, then live: pages through what is stored, signals caught-up, then waits for the
 * store's change token to move and pages again. A change between the read and the wait is
 * never missed, because the token is taken before the read.
 */
export const catchUpSubscription = (source: CatchUpSource, from: 'start' | 'end' | bigint): Subscription => {
  const controller = new AbortController();
  const { signal } = controller;
  async function* run(): AsyncGenerator<SubscriptionItem> {
    let cursor: bigint | null = from === 'start' ? null : from === 'end' ? await source.head() : from;
    let signalled = false;
    while (!signal.aborted) {
      const token = await source.changeToken();
      const page = await source.readAfter(cursor, CATCH_UP_PAGE);
      for (const event of page) {
        if (signal.aborted) return;
        cursor = source.keyOf(event);
        if (!source.accept || source.accept(event)) yield { kind: 'event', event };
      }
      if (page.length === CATCH_UP_PAGE) continue;
      if (page.length > 0 || !signalled) {
        if (cursor !== null) yield { kind: 'checkpoint', position: cursor };
        yield { kind: 'caught_up', position: cursor };
        signalled = true;
      }
      await source.waitForChange(token, signal);
    }
  }
  const iterator = run();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      controller.abort();
      await iterator.return(undefined);
    },
  };
};

/** A change token that lives in one process: a counter and the waiters on it. */
export const changeNotifier = () => {
  let version = 0;
  const waiters = new Set<() => void>();
  return {
    version: () => version,
    notify: () => {
      version += 1;
      for (const wake of [...waiters]) wake();
    },
    wait: (token: unknown, signal: AbortSignal, pollMs?: number, poll?: () => boolean): Promise<void> =>
      new Promise<void>((resolve) => {
        if (signal.aborted || token !== version || (poll && poll())) return resolve();
        let timer: NodeJS.Timeout | undefined;
        const done = () => {
          waiters.delete(done);
          signal.removeEventListener('abort', done);
          if (timer) clearInterval(timer);
          resolve();
        };
        waiters.add(done);
        signal.addEventListener('abort', done, { once: true });
        if (pollMs !== undefined && poll) {
          timer = setInterval(() => {
            if (poll()) done();
          }, pollMs);
        }
      }),
  };
};
