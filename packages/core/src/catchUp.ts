import type { RecordedEvent } from './envelope.js';
import type { Subscription, SubscriptionItem } from './subscription.js';

/**
 * A page of history: `more` when the source stopped before the end of what is stored (at `max`
 * events, or at `maxBytes`): the subscription reads on before it signals caught-up.
 */
export interface CatchUpPage {
  events: RecordedEvent[];
  more: boolean;
}

export interface CatchUpSource {
  /**
   * Events strictly after `after` (null: from the beginning), in order: at most `max`, and, where the
   * source can tell an event's stored size, no more once `maxBytes` of them are read (always one).
   */
  readAfter(after: bigint | null, max: number, maxBytes: number): Promise<CatchUpPage>;
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

/** Resolves on the event loop's next turn, after pending I/O callbacks (other requests) have run. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/**
 * A page of history holds at most this much stored event text (data and metadata; one larger event
 * goes alone): a subscriber that does not read (an SSE client that stalls) holds one page, so its
 * memory is bounded by bytes, not by 500 events of up to 16 MiB each (outside test, session 14).
 */
export const CATCH_UP_BYTES = 1024 * 1024;

/** The first events of `rows` (at least one) whose sizes add up to `maxBytes` at most, and whether any were left. */
export const withinBytes = <Row>(rows: Iterable<Row>, max: number, maxBytes: number, sizeOf: (row: Row) => number): { rows: Row[]; more: boolean } => {
  const out: Row[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = sizeOf(row);
    if (out.length > 0 && bytes + size > maxBytes) return { rows: out, more: true };
    out.push(row);
    bytes += size;
    if (out.length === max) return { rows: out, more: true };
  }
  return { rows: out, more: false };
};

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
      const page = await source.readAfter(cursor, CATCH_UP_PAGE, CATCH_UP_BYTES);
      for (const event of page.events) {
        if (signal.aborted) return;
        cursor = source.keyOf(event);
        if (!source.accept || source.accept(event)) yield { kind: 'event', event };
      }
      if (page.more) {
        // A turn of the event loop between pages: a subscriber catching up on a large history (an
        // SSE client that reads as fast as the server writes, a read model at start) would otherwise
        // run from microtask to microtask and hold the process until caught up (outside test,
        // session 19: 2.5 s without an answer to anyone for a 320,000-event store).
        await nextTurn();
        continue;
      }
      if (page.events.length > 0 || !signalled) {
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
