import {
  foldSubscriberStatus,
  reduceSubscriberStatus,
  type SubscriberBook,
  type SubscriberStatus,
  type SubscriberStatusMap,
} from '@session-ledger/core';
import { z } from 'zod';

/**
 * Provider status lives in one stream of the store, so any process (the CLI) can read it and
 * resume a provider that another process (the server running the fan-out) parked. The fan-out is
 * a set of core durable subscribers; this book keeps the stream, types and checkpoint names the
 * memory fan-out has always used.
 */
export const PROVIDER_STATUS_STREAM = 'ledger-memory-providers';

export const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** The fan-out's durable checkpoint name for a provider. */
export const providerCheckpoint = (name: string): string => `memory-provider:${name}`;

export const PROVIDER_BOOK: SubscriberBook = {
  stream: PROVIDER_STATUS_STREAM,
  types: {
    registered: 'memory.provider_registered',
    parked: 'memory.provider_parked',
    resumed: 'memory.provider_resumed',
    skipped: 'memory.provider_skipped',
  },
  checkpoint: providerCheckpoint,
  noun: 'memory provider',
  validName: PROVIDER_NAME,
};

const at = { stream: z.string(), revision: z.number(), position: z.number(), eventId: z.string(), eventType: z.string().optional() };

/** The shapes of the status events (documentation and HTTP validation; the fold is core's). */
export const providerStatusEvents = {
  'memory.provider_registered': z.object({ name: z.string() }),
  // Without the place when the provider's prepare failed, before it delivered anything.
  'memory.provider_parked': z.object({ name: z.string(), reason: z.string(), attempts: z.number(), ...at }).or(z.object({ name: z.string(), reason: z.string(), attempts: z.number() })),
  'memory.provider_resumed': z.object({ name: z.string(), by: z.string().optional() }),
  'memory.provider_skipped': z.object({ name: z.string(), reason: z.string(), ...at }),
} as const;

export type ProviderStatusEventType = keyof typeof providerStatusEvents;

export type ProviderStatus = SubscriberStatus;

export type ProviderStatusMap = SubscriberStatusMap;

/** Applies one status event to `out` and returns it; unknown or malformed events are ignored. */
export const reduceProviderStatus = (out: ProviderStatusMap, event: { type: string; data: unknown; created?: string }): ProviderStatusMap =>
  reduceSubscriberStatus(PROVIDER_BOOK, out, event);

/** The status of every provider, in registration order. */
export const foldProviderStatus = (events: ReadonlyArray<{ type: string; data: unknown; created?: string }>): ProviderStatusMap =>
  foldSubscriberStatus(PROVIDER_BOOK, events);
