import {
  createLedger,
  readStreamIfAny,
  newId,
  notFound,
  readWholeStream,
  type EventStore,
  type JsonObject,
  type Ledger,
  type RecordedEvent,
} from '@session-ledger/core';
import {
  foldProviderStatus,
  providerCheckpoint,
  PROVIDER_STATUS_STREAM,
  type ProviderStatus,
  type ProviderStatusEventType,
} from './statusEvents.js';

export const readStatusEvents = async (store: EventStore): Promise<RecordedEvent[]> => {
  return (await readStreamIfAny(store, PROVIDER_STATUS_STREAM)) ?? [];
};

/** Every provider a fan-out ever registered in this store, with its state and checkpoint. */
export const readProviderStatuses = async (store: EventStore): Promise<ProviderStatus[]> => {
  const folded = foldProviderStatus(await readStatusEvents(store));
  const out: ProviderStatus[] = [];
  for (const status of folded.values()) out.push({ ...status, checkpoint: await store.readCheckpoint(providerCheckpoint(status.name)) });
  return out;
};

export const readProviderStatus = async (store: EventStore, name: string): Promise<ProviderStatus> => {
  const status = (await readProviderStatuses(store)).find((candidate) => candidate.name === name);
  if (!status) throw notFound('memory provider', name);
  return status;
};

export const recordProviderEvent = (ledger: Ledger, type: ProviderStatusEventType, data: JsonObject) =>
  ledger.append(PROVIDER_STATUS_STREAM, [{ id: newId(), type, data }], { expectedRevision: 'any' });

/**
 * Un-parks providers (one by name, or every parked one). A running fan-out sees the event and
 * delivers the failed mutation again first. Returns the providers that were resumed.
 */
export const resumeProviders = async (store: EventStore, name?: string, by = 'cli'): Promise<string[]> => {
  const statuses = await readProviderStatuses(store);
  if (name !== undefined && !statuses.some((status) => status.name === name)) throw notFound('memory provider', name);
  const parked = statuses.filter((status) => status.state === 'parked' && (name === undefined || status.name === name));
  const ledger = createLedger(store);
  for (const status of parked) await recordProviderEvent(ledger, 'memory.provider_resumed', { name: status.name, by });
  return parked.map((status) => status.name);
};
