import {
  readSubscriberEvents,
  readSubscriberStatus,
  readSubscriberStatuses,
  recordSubscriberEvent,
  resumeSubscribers,
  type EventStore,
  type JsonObject,
  type Ledger,
  type RecordedEvent,
} from '@session-ledger/core';
import { PROVIDER_BOOK, type ProviderStatus, type ProviderStatusEventType } from './statusEvents.js';

export const readStatusEvents = (store: EventStore): Promise<RecordedEvent[]> => readSubscriberEvents(store, PROVIDER_BOOK);

/** Every provider a fan-out ever registered in this store, with its state and checkpoint. */
export const readProviderStatuses = (store: EventStore): Promise<ProviderStatus[]> => readSubscriberStatuses(store, PROVIDER_BOOK);

export const readProviderStatus = (store: EventStore, name: string): Promise<ProviderStatus> => readSubscriberStatus(store, name, PROVIDER_BOOK);

const KINDS = {
  'memory.provider_registered': 'registered',
  'memory.provider_parked': 'parked',
  'memory.provider_resumed': 'resumed',
  'memory.provider_skipped': 'skipped',
} as const;

export const recordProviderEvent = (ledger: Ledger, type: ProviderStatusEventType, data: JsonObject) =>
  recordSubscriberEvent(ledger, PROVIDER_BOOK, KINDS[type], data);

/**
 * Un-parks providers (one by name, or every parked one). A running fan-out sees the event and
 * delivers the failed mutation again first. Returns the providers that were resumed.
 */
export const resumeProviders = (store: EventStore, name?: string, by = 'cli'): Promise<string[]> =>
  resumeSubscribers(store, name, by, PROVIDER_BOOK);
