import type { Position, ResolvedEvent } from '@eventstore/db-client';
import { storeUnavailable, type RecordedEvent, type Subscription, type SubscriptionItem } from '@session-ledger/core';
import { toRecorded } from './convert.js';
import { mapClientError, type ErrorContext } from './errors.js';

/** The parts of the client's catch-up subscription the bridge uses. */
export interface ClientSubscription {
  readonly readableLength: number;
  on(event: 'data', listener: (event: ResolvedEvent) => void): unknown;
  on(event: 'caughtUp' | 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  unsubscribe(): Promise<void>;
}

type Entry =
  | { kind: 'data'; resolved: ResolvedEvent }
  | { kind: 'checkpoint'; position: bigint }
  | { kind: 'caught_up' }
  | { kind: 'error'; error: Error }
  | { kind: 'end' };

export interface BridgeOptions {
  /** The key caught-up reports: a revision for a stream, a position for $all. */
  keyOf(event: RecordedEvent): bigint;
  /** Which events are delivered; the others still move the key. */
  accept(event: RecordedEvent): boolean;
  initialKey: bigint | null;
  context: ErrorContext;
}

const HIGH_WATER = 1000;

/**
 * The client's subscription as the port's: events in order, then checkpoint and caught-up items
 * exactly where the server sent them. The client signals caught-up and checkpoints as they pass
 * its transform, possibly ahead of events still buffered for reading; each signal is therefore
 * held until every event pushed before it has been delivered.
 */
export const bridgeSubscription = (
  open: (onCheckpoint: (position: Position) => void) => ClientSubscription,
  options: BridgeOptions,
): Subscription => {
  const queue: Entry[] = [];
  const held: Array<{ after: number; entry: Entry }> = [];
  let received = 0;
  let closed = false;
  let paused = false;
  let wake: (() => void) | null = null;
  const signal = () => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  let source: ClientSubscription;
  const enqueue = (entry: Entry) => {
    queue.push(entry);
    if (!paused && queue.length > HIGH_WATER) {
      paused = true;
      source.pause();
    }
    signal();
  };
  const release = () => {
    while (held[0] && held[0].after <= received) enqueue(held.shift()!.entry);
  };
  const hold = (entry: Entry) => {
    held.push({ after: received + source.readableLength, entry });
    release();
  };
  // A checkpoint whose prepare half differs from its commit half names no event this ledger wrote
  // (its events have prepare == commit): KurrentDB 24.10.0-24.10.4 and 25.0.0 end a filtered catch-up
  // with (end of the log, 0), where the next append lands, so resuming from its commit half skipped
  // that event for good (kurrent-io/KurrentDB#4970; outside review, session 27). Such checkpoints are
  // dropped: a subscriber then resumes from the last event it saw, and only re-scans.
  source = open((position) => {
    if (position.prepare === position.commit) hold({ kind: 'checkpoint', position: position.commit });
  });
  source.on('data', (resolved) => {
    received += 1;
    enqueue({ kind: 'data', resolved });
    release();
  });
  source.on('caughtUp', () => hold({ kind: 'caught_up' }));
  source.on('error', (error) => hold({ kind: 'error', error: mapClientError(error, options.context) }));
  source.on('end', () => hold({ kind: 'end' }));

  async function* run(): AsyncGenerator<SubscriptionItem> {
    let key = options.initialKey;
    try {
      for (;;) {
        while (queue.length === 0) {
          if (closed) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
        if (closed) return;
        const entry = queue.shift()!;
        if (paused && queue.length < HIGH_WATER / 2) {
          paused = false;
          source.resume();
        }
        if (entry.kind === 'data') {
          const event = toRecorded(entry.resolved);
          if (!event) continue;
          key = options.keyOf(event);
          if (options.accept(event)) yield { kind: 'event', event };
        } else if (entry.kind === 'checkpoint') {
          if (key === null || entry.position > key) key = entry.position;
          yield { kind: 'checkpoint', position: entry.position };
        } else if (entry.kind === 'caught_up') {
          yield { kind: 'caught_up', position: key };
        } else if (entry.kind === 'error') {
          throw entry.error;
        } else {
          throw storeUnavailable('The EventStoreDB subscription ended', 'subscription-ended');
        }
      }
    } finally {
      closed = true;
      await source.unsubscribe().catch(() => undefined);
    }
  }
  const iterator = run();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      closed = true;
      signal();
      await source.unsubscribe().catch(() => undefined);
      await iterator.return(undefined);
    },
  };
};
