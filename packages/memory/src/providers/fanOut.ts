import { createLedger, startDurableSubscriber, type EventStore, type JsonObject, type RecordedEvent } from '@session-ledger/core';
import { MEMORY_PREFIX } from '@session-ledger/events';
import { backoffDelay, DEFAULT_PROVIDER_RETRY, sleep, type RetryOptions } from './backoff.js';
import { checkProviderNames } from './names.js';
import { deliveryOf, type MemoryMutation, type MemoryProvider } from './mutation.js';
import { providerCheckpoint } from './statusEvents.js';
import { recordProviderEvent } from './statusStore.js';
import { watchProviderStatus } from './statusWatcher.js';

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

/** Thrown out of a subscriber's handler to end it without a checkpoint. */
class Halt extends Error {}

const positionOf = (mutation: MemoryMutation): JsonObject => ({
  stream: mutation.stream,
  revision: Number(mutation.revision),
  position: Number(mutation.position),
  eventId: mutation.eventId,
});

/**
 * Fans committed memory mutations out to providers. Each provider has its own durable,
 * checkpointed subscription to the `memory-` streams: in commit order, at least once, resumed
 * after a crash or restart from its checkpoint. A failing provider is retried with backoff and
 * then parked (recorded in the status stream) without holding up the writers or other providers;
 * a resume (from any process) delivers the failed mutation again first.
 */
export const startMemoryFanOut = (store: EventStore, providers: readonly MemoryProvider[], options: FanOutOptions = {}): MemoryFanOut => {
  checkProviderNames(providers.map((provider) => provider.name));
  const retry: RetryOptions = { ...DEFAULT_PROVIDER_RETRY, ...options.retry };
  const warn =
    options.onWarning ??
    ((warning: FanOutWarning) => process.stderr.write(`session-ledger memory provider ${warning.provider}: ${warning.message}\n`));
  const ledger = createLedger(store);
  const controller = new AbortController();
  const { signal } = controller;
  const status = watchProviderStatus(store, signal, (error) => warn({ provider: '*', message: `status stream: ${String(error)}` }));

  const deliver = async (provider: MemoryProvider, mutation: MemoryMutation): Promise<void> => {
    for (let failures = 1; ; failures += 1) {
      try {
        await provider.apply(mutation);
        return;
      } catch (error) {
        if (signal.aborted) throw new Halt('stopped');
        const reason = error instanceof Error ? error.message : String(error);
        if (failures >= retry.attempts) {
          const parked = await recordProviderEvent(ledger, 'memory.provider_parked', {
            name: provider.name,
            reason,
            attempts: failures,
            ...positionOf(mutation),
          });
          warn({ provider: provider.name, message: `parked after ${failures} attempts: ${reason}`, mutation });
          await status.waitFor(() => status.revision() >= parked.nextExpectedRevision, signal);
          throw new Halt('parked');
        }
        warn({ provider: provider.name, message: `attempt ${failures} failed: ${reason}`, mutation });
        await sleep(backoffDelay(retry, failures), signal);
        if (signal.aborted) throw new Halt('stopped');
      }
    }
  };

  const handle = (provider: MemoryProvider) => async (event: RecordedEvent) => {
    const delivery = deliveryOf(event);
    if (!delivery) return;
    if (delivery.kind === 'skip') {
      warn({ provider: provider.name, message: delivery.reason, mutation: delivery.mutation });
      await recordProviderEvent(ledger, 'memory.provider_skipped', {
        name: provider.name,
        reason: delivery.reason,
        ...positionOf(delivery.mutation),
      });
      return;
    }
    await deliver(provider, delivery.mutation);
  };

  const run = (provider: MemoryProvider) => {
    let markCaughtUp!: () => void;
    const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));
    const done = (async () => {
      await status.ready;
      if (!signal.aborted && !status.get(provider.name)) {
        await recordProviderEvent(ledger, 'memory.provider_registered', { name: provider.name });
      }
      while (!signal.aborted) {
        if (status.get(provider.name)?.state === 'parked') {
          markCaughtUp();
          await status.waitFor(() => status.get(provider.name)?.state !== 'parked', signal);
          continue;
        }
        const subscriber = startDurableSubscriber(store, providerCheckpoint(provider.name), handle(provider), {
          filter: { streamNamePrefixes: [MEMORY_PREFIX] },
        });
        void subscriber.caughtUp.then(markCaughtUp);
        const stop = () => void subscriber.stop();
        signal.addEventListener('abort', stop, { once: true });
        try {
          await subscriber.done;
        } catch (error) {
          if (!(error instanceof Halt)) {
            warn({ provider: provider.name, message: `fan-out error, restarting: ${String(error)}` });
            await sleep(backoffDelay(retry, 1), signal);
          }
        } finally {
          signal.removeEventListener('abort', stop);
        }
      }
      markCaughtUp();
    })();
    return { caughtUp, done: done.catch((error) => warn({ provider: provider.name, message: `stopped on error: ${String(error)}` })) };
  };

  const runners = providers.map(run);
  return {
    caughtUp: Promise.all(runners.map((runner) => runner.caughtUp)).then(() => undefined),
    stop: async () => {
      controller.abort();
      await Promise.all(runners.map((runner) => runner.done));
    },
  };
};
