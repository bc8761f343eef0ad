import type { RecordedEvent } from '../envelope.js';
import type { Ledger } from '../ledger.js';
import { backoffDelay, sleep, type RetryOptions } from './backoff.js';
import type { SubscriberBook } from './statusBook.js';
import { recordSubscriberEvent } from './statusStore.js';
import type { StatusWatcher } from './statusWatcher.js';

export interface SubscriberWarning {
  subscriber: string;
  message: string;
  /** The event a failed attempt or the parking was about. */
  event?: RecordedEvent;
}

export interface Delivery {
  name: string;
  handler: (event: RecordedEvent) => Promise<void> | void;
  retry: RetryOptions;
  book: SubscriberBook;
  ledger: Ledger;
  status: StatusWatcher;
  warn: (warning: SubscriberWarning) => void;
  signal: AbortSignal;
}

export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const placeOf = (event: RecordedEvent) => ({
  stream: event.streamName,
  revision: Number(event.revision),
  position: Number(event.position),
  eventId: event.id,
  eventType: event.type,
});

/**
 * The error policy: the handler is retried with backoff; after `retry.attempts` failures the
 * parking (naming the event) is recorded in the book's status stream and this returns 'parked'
 * once the status watcher has seen it. 'stopped' when the subscriber is stopped meanwhile.
 */
export const deliver = async (d: Delivery, event: RecordedEvent): Promise<'ok' | 'parked' | 'stopped'> => {
  for (let failures = 1; ; failures += 1) {
    try {
      await d.handler(event);
      return 'ok';
    } catch (error) {
      if (d.signal.aborted) return 'stopped';
      const reason = reasonOf(error);
      if (failures >= d.retry.attempts) {
        const parked = await recordSubscriberEvent(d.ledger, d.book, 'parked', { name: d.name, reason, attempts: failures, ...placeOf(event) });
        d.warn({ subscriber: d.name, message: `parked after ${failures} attempts at ${event.streamName}@${event.revision}: ${reason}`, event });
        await d.status.waitFor(() => d.status.revision() >= parked.nextExpectedRevision, d.signal);
        return 'parked';
      }
      d.warn({ subscriber: d.name, message: `attempt ${failures} failed: ${reason}`, event });
      await sleep(backoffDelay(d.retry, failures), d.signal);
      if (d.signal.aborted) return 'stopped';
    }
  }
};
