/**
 * Where a family of durable subscribers keeps its status: one stream of the store (so any process,
 * the CLI included, can read it and resume a subscriber another process parked), the event types
 * it writes there, and the checkpoint name of each subscriber. Generic subscribers use
 * SUBSCRIBER_BOOK; the memory fan-out keeps its own book (its stream and types predate this one).
 */
export interface SubscriberBook {
  stream: string;
  types: { registered: string; parked: string; resumed: string; skipped: string };
  checkpoint(name: string): string;
  /**
   * Where an earlier version kept a subscriber's checkpoint, read when `checkpoint` holds none and the
   * subscriber registered before (so it resumes; one never registered starts at the beginning).
   */
  formerCheckpoint?(name: string): string;
  /** How errors name one subscriber of this book ("subscriber", "memory provider"). */
  noun: string;
  /** The names a subscriber of this book may have: another name asked for is invalid_input, not not_found. */
  validName: RegExp;
}

export const SUBSCRIBERS_STREAM = 'ledger-subscribers';

export const SUBSCRIBER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export const SUBSCRIBER_BOOK: SubscriberBook = {
  stream: SUBSCRIBERS_STREAM,
  types: {
    registered: 'subscriber.registered',
    parked: 'subscriber.parked',
    resumed: 'subscriber.resumed',
    skipped: 'subscriber.skipped',
  },
  // Under a prefix of its own: checkpoint names are one namespace of the store, and a bare name was
  // another module's (a migration's `migrate-<hash>`, a memory provider's `memory-provider:NAME`), so a
  // subscriber so named took over its position (outside test, session 26). Until then: the bare name.
  checkpoint: (name) => `subscriber:${name}`,
  formerCheckpoint: (name) => name,
  noun: 'subscriber',
  validName: SUBSCRIBER_NAME,
};

export type SubscriberEventKind = keyof SubscriberBook['types'];

/** Where an event is: what a parked subscriber failed on, or a skipped event. */
export interface EventAt {
  stream: string;
  revision: number;
  position: number;
  eventId: string;
  /** The event's type (absent in records written before it was kept). */
  eventType?: string;
}

export interface SubscriberStatus {
  name: string;
  state: 'active' | 'parked';
  /** Why it is parked: the handler's last error. */
  reason?: string;
  parkedAt?: string;
  /** The event it failed on; delivered again first after a resume. */
  failed?: EventAt & { attempts: number };
  /** Events the handler chose to skip, and the last one. */
  skipped: number;
  lastSkipped?: EventAt & { reason: string };
  /** Commit position the subscriber has durably processed; null when it has processed nothing. */
  checkpoint: bigint | null;
}

export type SubscriberStatusMap = Map<string, Omit<SubscriberStatus, 'checkpoint'>>;
