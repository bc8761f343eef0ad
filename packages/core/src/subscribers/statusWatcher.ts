import type { EventStore } from '../port.js';
import { sleep } from './backoff.js';
import type { SubscriberBook, SubscriberStatusMap } from './statusBook.js';
import { reduceSubscriberStatus } from './statusFold.js';

export interface StatusWatcher {
  /** Resolves once the stored status has been read. */
  ready: Promise<void>;
  get(name: string): ReturnType<SubscriberStatusMap['get']>;
  /** Resolves once `predicate` holds (checked after every status event), or a signal aborts. */
  waitFor(predicate: () => boolean, signal: AbortSignal): Promise<void>;
  /** The last status revision seen; -1n before any. */
  revision(): bigint;
}

/** Follows a book's status stream live, so a resume written by another process wakes the subscriber. */
export const watchSubscriberStatus = (
  store: EventStore,
  book: SubscriberBook,
  signal: AbortSignal,
  onError: (error: unknown) => void,
): StatusWatcher => {
  const statuses: SubscriberStatusMap = new Map();
  let revision = -1n;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  void (async () => {
    while (!signal.aborted) {
      const subscription = store.subscribeToStream(book.stream, { fromRevision: revision < 0n ? 'start' : revision });
      const close = () => void subscription.close();
      signal.addEventListener('abort', close, { once: true });
      try {
        for await (const item of subscription) {
          if (item.kind === 'event') {
            reduceSubscriberStatus(book, statuses, item.event);
            revision = item.event.revision;
          } else if (item.kind === 'caught_up') markReady();
          wake();
        }
      } catch (error) {
        if (!signal.aborted) onError(error);
        await sleep(200, signal);
      } finally {
        signal.removeEventListener('abort', close);
      }
    }
    markReady();
    wake();
  })();
  return {
    ready,
    get: (name) => statuses.get(name),
    revision: () => revision,
    waitFor: (predicate, waitSignal) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!predicate() && !waitSignal.aborted && !signal.aborted) return;
          waiters.delete(check);
          waitSignal.removeEventListener('abort', check);
          resolve();
        };
        waiters.add(check);
        waitSignal.addEventListener('abort', check, { once: true });
        check();
      }),
  };
};
