import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import {
  isLedgerError,
  newId,
  type ErrorDetails,
  type ErrorType,
  type EventData,
  type EventStore,
  type RecordedEvent,
  type Subscription,
  type SubscriptionItem,
} from '@session-ledger/core';

export type StoreSetup = () => Promise<{ store: EventStore; cleanup: () => Promise<void>; scavenge?: () => Promise<unknown> }>;

/** How long a test waits for something a live backend must eventually deliver. */
export const WAIT_MS = 15_000;

/** A stream name no other test (or earlier run against a real server) has used. */
export const uniqueStream = (label = 'conf'): string => `${label}-${randomUUID().slice(0, 12)}`;

/** A prefix shared only by the streams of one test: `${prefix}a`, `${prefix}b`, ... */
export const uniquePrefix = (label = 'conf'): string => `${label}${randomUUID().replace(/-/g, '').slice(0, 12)}-`;

export const makeEvents = (count: number, type = 'tested', start = 0): EventData[] =>
  Array.from({ length: count }, (_, index) => ({
    id: newId(),
    type,
    data: { n: start + index, text: `event ${start + index}` },
    metadata: { source: 'conformance' },
  }));

export const idsOf = (events: Array<{ id: string }>): string[] => events.map((event) => event.id);

/** Awaits a rejection and checks it is the ledger error of that type (and details, when given). */
export const expectLedgerError = async <T extends ErrorType>(
  promise: Promise<unknown>,
  type: T,
  details?: Partial<ErrorDetails[T]>,
): Promise<void> => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected a ${type} error, but the call succeeded`).toBeDefined();
  expect(isLedgerError(error), `expected a LedgerError, got ${String(error)}`).toBe(true);
  expect((error as { type: string }).type).toBe(type);
  if (details) expect((error as { details: unknown }).details).toMatchObject(details);
};

/** Returns the error type a call fails with, or 'ok'. */
export const outcomeOf = async (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'ok',
    (error: unknown) => (isLedgerError(error) ? error.type : `unexpected: ${String(error)}`),
  );

/** Reads a stream, or returns the error type it fails with. */
export const readOrError = async (store: EventStore, stream: string): Promise<RecordedEvent[] | string> =>
  store.readStream(stream).catch((error: unknown) => (isLedgerError(error) ? error.type : Promise.reject(error)));

/** Every event of $all from an inclusive position whose stream starts with a prefix, in commit order. */
export const readAllOf = async (store: EventStore, prefix: string, from: bigint | 'start' = 'start'): Promise<RecordedEvent[]> => {
  const out: RecordedEvent[] = [];
  let cursor = from;
  for (;;) {
    const page = await store.readAll({ fromPosition: cursor, maxCount: 500 });
    out.push(...page.filter((event) => event.streamName.startsWith(prefix)));
    if (page.length < 500) return out;
    cursor = page[page.length - 1]!.position + 1n;
  }
};

/**
 * Pulls items from a subscription until `done` says so, or fails after WAIT_MS.
 * The subscription stays open, so a test can append and pull again.
 */
export const pullUntil = async (
  iterator: AsyncIterator<SubscriptionItem>,
  done: (items: SubscriptionItem[]) => boolean,
  items: SubscriptionItem[] = [],
): Promise<SubscriptionItem[]> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`subscription did not deliver within ${WAIT_MS} ms`)), WAIT_MS);
  });
  try {
    while (!done(items)) {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next.done) break;
      items.push(next.value);
    }
    return items;
  } finally {
    clearTimeout(timer);
  }
};

export const iteratorOf = (subscription: Subscription): AsyncIterator<SubscriptionItem> =>
  subscription[Symbol.asyncIterator]();

export const eventsIn = (items: SubscriptionItem[]): RecordedEvent[] =>
  items.flatMap((item) => (item.kind === 'event' ? [item.event] : []));

export const waitFor = async (condition: () => boolean | Promise<boolean>, what: string): Promise<void> => {
  const deadline = Date.now() + WAIT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
