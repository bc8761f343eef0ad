import type { RecordedEvent } from './envelope.js';
import { invalidInput } from './errors.js';
import { createLedger } from './ledger.js';
import type { EventFilter, EventStore } from './port.js';
import type { Subscription } from './subscription.js';
import { backoffDelay, DEFAULT_SUBSCRIBER_RETRY, sleep, type RetryOptions } from './subscribers/backoff.js';
import { SUBSCRIBER_BOOK, SUBSCRIBER_NAME, type SubscriberBook } from './subscribers/statusBook.js';
import { deliver, reasonOf, type Delivery, type SubscriberWarning } from './subscribers/deliver.js';
import { readBookCheckpoint, recordSubscriberEvent } from './subscribers/statusStore.js';
import { watchSubscriberStatus } from './subscribers/statusWatcher.js';

export type { SubscriberWarning } from './subscribers/deliver.js';

export interface DurableSubscriberOptions {
  filter?: EventFilter;
  /** Attempts per event before parking, and the backoff between them. */
  retry?: Partial<RetryOptions>;
  /** Where the status and checkpoint live. Default SUBSCRIBER_BOOK (`ledger-subscribers`, checkpoint = name). */
  book?: SubscriberBook;
  /** Failed attempts, parking, restarts after a store error. Default: one line on stderr. */
  onWarning?: (warning: SubscriberWarning) => void;
}

export interface DurableSubscriber {
  /** Resolves once the subscriber has delivered everything stored when it started, or is parked. */
  caughtUp: Promise<void>;
  /** Stops and waits for the handler in flight; nothing half-handled is checkpointed. */
  stop(): Promise<void>;
  /** Resolves when the subscriber stops. */
  done: Promise<void>;
}

/**
 * A named subscription to $all whose position is a durable checkpoint in the store, stored only
 * after the handler returns: a restarted subscriber resumes after its last checkpoint, so delivery
 * is at least once, with no gap. A throwing handler is retried with backoff; after
 * `retry.attempts` failures the subscriber is parked (a record naming the failing event, in the
 * book's status stream) and waits, without skipping anything, until `resumeSubscribers` (or
 * `session-ledger subscribers resume NAME`, from any process) un-parks it; it then delivers the
 * failing event again first. A store error restarts the subscription from the checkpoint.
 */
export const startDurableSubscriber = (
  store: EventStore,
  name: string,
  handler: (event: RecordedEvent) => Promise<void> | void,
  options: DurableSubscriberOptions = {},
): DurableSubscriber => {
  if (!SUBSCRIBER_NAME.test(name)) throw invalidInput(`Invalid subscriber name: ${JSON.stringify(name)}`, 'name');
  const book = options.book ?? SUBSCRIBER_BOOK;
  const retry: RetryOptions = { ...DEFAULT_SUBSCRIBER_RETRY, ...options.retry };
  const warn =
    options.onWarning ?? ((warning: SubscriberWarning) => process.stderr.write(`session-ledger ${book.noun} ${warning.subscriber}: ${warning.message}\n`));
  const checkpoint = book.checkpoint(name);
  const ledger = createLedger(store);
  const controller = new AbortController();
  const { signal } = controller;
  const status = watchSubscriberStatus(store, book, signal, (error) => warn({ subscriber: name, message: `status stream: ${String(error)}` }));
  let markCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));
  let current: Subscription | undefined;
  /** Whether the status stream knew this subscriber when it started (set before the first consume). */
  let registeredBefore = false;

  const delivery: Delivery = { name, handler, retry, book, ledger, status, warn, signal };

  /** One subscription from the checkpoint, until stopped or parked. */
  const consume = async (): Promise<void> => {
    const from = await readBookCheckpoint(store, book, name, registeredBefore);
    if (signal.aborted) return;
    const subscription = store.subscribeToAll({ fromPosition: from ?? 'start', filter: options.filter });
    current = subscription;
    try {
      for await (const item of subscription) {
        if (signal.aborted) return;
        if (item.kind === 'event') {
          if ((await deliver(delivery, item.event)) !== 'ok') return;
          await store.storeCheckpoint(checkpoint, item.event.position);
        } else if (item.kind === 'checkpoint') await store.storeCheckpoint(checkpoint, item.position);
        else markCaughtUp();
      }
    } finally {
      current = undefined;
      await subscription.close();
    }
  };

  const done = (async () => {
    await status.ready;
    registeredBefore = status.get(name) !== undefined;
    if (!signal.aborted && !registeredBefore) await recordSubscriberEvent(ledger, book, 'registered', { name });
    for (let restarts = 0; !signal.aborted; ) {
      if (status.get(name)?.state === 'parked') {
        markCaughtUp();
        await status.waitFor(() => status.get(name)?.state !== 'parked', signal);
        continue;
      }
      try {
        await consume();
        if (signal.aborted || status.get(name)?.state === 'parked') restarts = 0;
        else {
          // The subscription ended by itself (a store going away): start again after a pause.
          restarts += 1;
          await sleep(backoffDelay(retry, restarts), signal);
        }
      } catch (error) {
        if (signal.aborted) break;
        restarts += 1;
        warn({ subscriber: name, message: `subscription error, restarting: ${reasonOf(error)}` });
        await sleep(backoffDelay(retry, restarts), signal);
      }
    }
  })()
    .catch((error) => warn({ subscriber: name, message: `stopped on error: ${reasonOf(error)}` }))
    .finally(markCaughtUp);

  return {
    caughtUp,
    done,
    stop: async () => {
      controller.abort();
      await current?.close();
      await done;
    },
  };
};
