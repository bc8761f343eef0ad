import { z } from 'zod';

/**
 * Provider status lives in one stream of the store, so any process (the CLI) can read it and
 * resume a provider that another process (the server running the fan-out) parked.
 */
export const PROVIDER_STATUS_STREAM = 'ledger-memory-providers';

/** The fan-out's durable checkpoint name for a provider. */
export const providerCheckpoint = (name: string): string => `memory-provider:${name}`;

export const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

const at = { stream: z.string(), revision: z.number(), position: z.number(), eventId: z.string() };

export const providerStatusEvents = {
  'memory.provider_registered': z.object({ name: z.string() }),
  'memory.provider_parked': z.object({ name: z.string(), reason: z.string(), attempts: z.number(), ...at }),
  'memory.provider_resumed': z.object({ name: z.string(), by: z.string().optional() }),
  'memory.provider_skipped': z.object({ name: z.string(), reason: z.string(), ...at }),
} as const;

export type ProviderStatusEventType = keyof typeof providerStatusEvents;

export interface ProviderStatus {
  name: string;
  state: 'active' | 'parked';
  /** Why it is parked: the provider's last error. */
  reason?: string;
  parkedAt?: string;
  /** The mutation it failed on; delivered again first after a resume. */
  failed?: { stream: string; revision: number; position: number; eventId: string; attempts: number };
  /** Legacy mutations skipped (never mirrored destructively), and the last one. */
  skipped: number;
  lastSkipped?: { stream: string; revision: number; position: number; eventId: string; reason: string };
  /** Commit position the provider has durably processed; null when it has processed nothing. */
  checkpoint: bigint | null;
}

export type ProviderStatusMap = Map<string, Omit<ProviderStatus, 'checkpoint'>>;

/** Applies one status event to `out` and returns it; unknown or malformed events are ignored. */
export const reduceProviderStatus = (out: ProviderStatusMap, event: { type: string; data: unknown; created?: string }): ProviderStatusMap => {
  const schema = providerStatusEvents[event.type as ProviderStatusEventType];
  const parsed = schema?.safeParse(event.data);
  if (!parsed?.success) return out;
  const { name } = parsed.data;
  const current = out.get(name) ?? { name, state: 'active' as const, skipped: 0 };
  const data = parsed.data as Record<string, unknown>;
  if (event.type === 'memory.provider_parked') {
    const { stream, revision, position, eventId, attempts, reason } = data as Required<ProviderStatus>['failed'] & { reason: string };
    const parked = { ...current, state: 'parked' as const, reason, failed: { stream, revision, position, eventId, attempts } };
    out.set(name, event.created === undefined ? parked : { ...parked, parkedAt: event.created });
  } else if (event.type === 'memory.provider_resumed') {
    const { reason: _reason, parkedAt: _parkedAt, failed: _failed, ...rest } = current;
    out.set(name, { ...rest, state: 'active' });
  } else if (event.type === 'memory.provider_skipped') {
    const { stream, revision, position, eventId, reason } = data as Required<ProviderStatus>['lastSkipped'];
    out.set(name, { ...current, skipped: current.skipped + 1, lastSkipped: { stream, revision, position, eventId, reason } });
  } else out.set(name, current);
  return out;
};

/** The status of every provider, in registration order. */
export const foldProviderStatus = (events: ReadonlyArray<{ type: string; data: unknown; created?: string }>): ProviderStatusMap => {
  const out: ProviderStatusMap = new Map();
  for (const event of events) reduceProviderStatus(out, event);
  return out;
};
