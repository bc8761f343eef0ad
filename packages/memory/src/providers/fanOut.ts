import {
  createLedger,
  startDurableSubscriber,
  type EventStore,
  type JsonObject,
  type RecordedEvent,
  type SubscriberWarning,
} from '@session-ledger/core';
import { DEFAULT_PROVIDER_RETRY, type RetryOptions } from './backoff.js';
import { MEMORY_PREFIX } from '@session-ledger/events';
import { batchEventsAt } from './batchEvents.js';
import { checkProviderNames } from './names.js';
import { deliveryOf, type MemoryMutation, type MemoryProvider } from './mutation.js';
import { PROVIDER_BOOK } from './statusEvents.js';
import { readProviderStatuses, recordProviderEvent } from './statusStore.js';

export interface FanOutWarning {
  provider: string;
  message: string;
  mutation?: MemoryMutation;
}

export interface FanOutOptions {
  retry?: Partial<RetryOptions>;
  /** Skipped legacy events, failed attempts, parking. Default: one line on stderr. */
  onWarning?: (warning: FanOutWarning) => void;
}

export interface MemoryFanOut {
  /** Resolves once every provider has processed what was stored when it started, or is parked. */
  caughtUp: Promise<void>;
  /** Stops every provider after the mutation in flight; nothing half-delivered is checkpointed. */
  stop(): Promise<void>;
}

const positionOf = (mutation: MemoryMutation): JsonObject => ({
  stream: mutation.stream,
  revision: Number(mutation.revision),
  position: Number(mutation.position),
  eventId: mutation.eventId,
});

/** The mutation a warning is about, when its event decodes as one. */
const mutationOf = (event: RecordedEvent | undefined): MemoryMutation | undefined => {
  try {
    return event ? deliveryOf(event)?.mutation : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Fans committed memory mutations out to providers. Each provider is a core durable subscriber
 * (`startDurableSubscriber`, the one error policy of every subscriber) to the `memory-` streams:
 * in commit order, at least once, resumed after a crash or restart from its checkpoint. A failing
 * provider is retried with backoff and then parked (recorded in the status stream) without holding
 * up the writers or other providers; a resume (from any process) delivers the failed mutation again first.
 */
export const startMemoryFanOut = (store: EventStore, providers: readonly MemoryProvider[], options: FanOutOptions = {}): MemoryFanOut => {
  checkProviderNames(providers.map((provider) => provider.name));
  const retry: RetryOptions = { ...DEFAULT_PROVIDER_RETRY, ...options.retry };
  const warn =
    options.onWarning ??
    ((warning: FanOutWarning) => process.stderr.write(`session-ledger memory provider ${warning.provider}: ${warning.message}\n`));
  const ledger = createLedger(store);

  /** Providers whose prepare has succeeded in this fan-out (one that failed is parked, and prepared again at its next delivery). */
  const ready = new Set<MemoryProvider>();
  const prepare = async (provider: MemoryProvider) => {
    if (ready.has(provider)) return;
    await provider.prepare?.(store);
    ready.add(provider);
  };

  const handle = (provider: MemoryProvider) => async (event: RecordedEvent) => {
    const own = deliveryOf(event);
    if (own === null) return;
    // A batch reaches the provider at once, at its last event (batchEvents.ts); this event is decoded once.
    const deliveries = (await batchEventsAt(store, event)).map((each) => (each === event ? own : deliveryOf(each))).filter((each) => each !== null);
    if (deliveries.length === 0) return;
    // After a resume (an import, a rebuild), the copy is prepared again before the first mutation: a failure is the mutation's (retried, then parked).
    await prepare(provider);
    const mutations: MemoryMutation[] = [];
    for (const delivery of deliveries) {
      if (delivery.kind === 'deliver') {
        mutations.push(delivery.mutation);
        continue;
      }
      warn({ provider: provider.name, message: delivery.reason, mutation: delivery.mutation });
      await recordProviderEvent(ledger, 'memory.provider_skipped', {
        name: provider.name,
        reason: delivery.reason,
        ...positionOf(delivery.mutation),
      });
    }
    if (mutations.length === 0) return;
    if (provider.applyBatch) await provider.applyBatch(mutations, store);
    else for (const mutation of mutations) await provider.apply(mutation);
  };

  const onWarning = (warning: SubscriberWarning) => {
    const mutation = mutationOf(warning.event);
    warn(mutation ? { provider: warning.subscriber, message: warning.message, mutation } : { provider: warning.subscriber, message: warning.message });
  };

  /**
   * Prepares a provider before its subscription. A failure parks it at once, with the reason and no
   * mutation (its status says so before any mutation comes; before, it read `active` until the first
   * one failed: outside test, session 17), unless it is parked already (that status names the
   * mutation it failed on, delivered first after a resume).
   */
  const prepared = async (provider: MemoryProvider) => {
    try {
      await prepare(provider);
    } catch (error) {
      const reason = `could not prepare: ${error instanceof Error ? error.message : String(error)}`;
      warn({ provider: provider.name, message: reason });
      const status = (await readProviderStatuses(store)).find((each) => each.name === provider.name);
      if (status?.state !== 'parked') await recordProviderEvent(ledger, 'memory.provider_parked', { name: provider.name, reason, attempts: 1 });
    }
  };
  const subscribers = providers.map(async (provider) => {
    await prepared(provider);
    return startDurableSubscriber(store, provider.name, handle(provider), {
      filter: { streamNamePrefixes: [MEMORY_PREFIX] },
      retry,
      book: PROVIDER_BOOK,
      onWarning,
    });
  });
  return {
    caughtUp: Promise.all(subscribers.map(async (subscriber) => (await subscriber).caughtUp)).then(() => undefined),
    stop: async () => {
      await Promise.all(subscribers.map(async (subscriber) => (await subscriber).stop()));
    },
  };
};
