import type { RecordedEvent } from './envelope.js';
import type { EventFilter, EventStore } from './port.js';

export interface DurableSubscriber {
  /** Resolves once the subscriber has delivered everything stored when it started. */
  caughtUp: Promise<void>;
  /** Stops and waits for the handler in flight. */
  stop(): Promise<void>;
  /** Resolves when the subscriber stops; rejects with the handler's error if it failed. */
  done: Promise<void>;
}

/**
 * A named subscription to $all whose position is a durable checkpoint in the store: a restarted
 * subscriber resumes after its last checkpoint, so delivery is at least once, with no gap.
 * The checkpoint is stored after the handler returns, never before.
 */
export const startDurableSubscriber = (
  store: EventStore,
  name: string,
  handler: (event: RecordedEvent) => Promise<void> | void,
  options: { filter?: EventFilter } = {},
): DurableSubscriber => {
  let resolveCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => (resolveCaughtUp = resolve));
  let subscription: ReturnType<EventStore['subscribeToAll']> | undefined;
  let stopped = false;
  const done = (async () => {
    const from = await store.readCheckpoint(name);
    if (stopped) return;
    subscription = store.subscribeToAll({ fromPosition: from ?? 'start', filter: options.filter });
    for await (const item of subscription) {
      if (stopped) break;
      if (item.kind === 'event') {
        await handler(item.event);
        await store.storeCheckpoint(name, item.event.position);
      } else if (item.kind === 'checkpoint') {
        await store.storeCheckpoint(name, item.position);
      } else resolveCaughtUp();
    }
  })();
  done.catch(() => resolveCaughtUp());
  return {
    caughtUp,
    done,
    stop: async () => {
      stopped = true;
      await subscription?.close();
      await done.catch(() => undefined);
    },
  };
};
