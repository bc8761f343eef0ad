import type { EventStore, RecordedEvent } from '@session-ledger/core';
import { decodeMemoryEvent, isMemoryEventType, type Causation, type MemoryTarget } from '@session-ledger/events';
import type { MemoryOp } from '../operations.js';

/** One committed mutation as a provider receives it: the store's identity, never a selector to re-match. */
export interface MemoryMutation {
  op: MemoryOp;
  profile: string;
  entryId: string;
  target: MemoryTarget;
  /** The full entry the store replaced or removed; null for an add (and for legacy events, never delivered). */
  previousContent: string | null;
  /** The entry afterwards; null for a remove. */
  content: string | null;
  /** The caller's selector: provenance only. */
  selector: string | null;
  eventId: string;
  stream: string;
  revision: bigint;
  position: bigint;
  causation: Causation;
}

/**
 * A mirror of the memory ledger. `apply` must be idempotent by entry id (delivery is at least once)
 * and must act on `entryId`/`previousContent`, never by searching for `selector`. Throwing makes the
 * fan-out retry with backoff, then park the provider.
 */
export interface MemoryProvider {
  readonly name: string;
  apply(mutation: MemoryMutation): Promise<void> | void;
  /**
   * The mutations of one batch (one atomic append), in order. A provider that keeps a copy others
   * read (the Markdown mirror) writes it once, so no reader sees a state between two operations.
   * Without it, `apply` is called for each. Delivered again whole after a crash, like `apply`. The
   * fan-out passes its store: a copy found lost between two batches is filled from it (as `prepare` does).
   */
  applyBatch?(mutations: readonly MemoryMutation[], store?: EventStore): Promise<void> | void;
  /**
   * Run before the provider's subscription starts: a provider that finds its own copy missing
   * (a new or lost directory) fills it here, since its checkpoint, shared by name, may be past every
   * mutation it would need. Throwing parks the provider at once (its status names no mutation); after
   * a resume it runs again before the next mutation, and throwing then fails that mutation.
   */
  prepare?(store: EventStore): Promise<void>;
}

export type Delivery =
  | { kind: 'deliver'; mutation: MemoryMutation }
  /** A destructive event without previous content (imported legacy data): never mirrored. */
  | { kind: 'skip'; mutation: MemoryMutation; reason: string };

const OPS = {
  'memory.entry_added': 'add',
  'memory.entry_replaced': 'replace',
  'memory.entry_removed': 'remove',
} as const;

/**
 * What the fan-out does with a stored event; null when it is not a memory mutation. A malformed
 * or newer-version memory event throws (the provider is parked with that reason, nothing guessed).
 */
export const deliveryOf = (event: RecordedEvent): Delivery | null => {
  if (!isMemoryEventType(event.type)) return null;
  const record = decodeMemoryEvent(event);
  const data: { content?: string; previousContent?: string; selector?: string } = record.data;
  const mutation: MemoryMutation = {
    op: OPS[record.type],
    profile: record.profile,
    entryId: record.data.entryId,
    target: record.data.target,
    previousContent: data.previousContent ?? null,
    content: data.content ?? null,
    selector: data.selector ?? null,
    eventId: record.eventId,
    stream: event.streamName,
    revision: record.revision,
    position: record.position,
    causation: record.causation,
  };
  if (mutation.op !== 'add' && mutation.previousContent === null) {
    return { kind: 'skip', mutation, reason: `${record.type} without previousContent (legacy data): not mirrored destructively` };
  }
  return { kind: 'deliver', mutation };
};
