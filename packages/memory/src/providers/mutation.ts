import { MEMORY_PREFIX, type RecordedEvent } from '@session-ledger/core';
import { causationSchema, parseMemoryEvent, type Causation, type MemoryTarget } from '../events/index.js';
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

/** What the fan-out does with a stored event; null when it is not a memory mutation. */
export const deliveryOf = (event: RecordedEvent): Delivery | null => {
  if (!event.streamName.startsWith(MEMORY_PREFIX)) return null;
  const parsed = parseMemoryEvent(event);
  if (!parsed) return null;
  const data = parsed.data as { entryId: string; target: MemoryTarget; content?: string; previousContent?: string; selector?: string };
  const cause = causationSchema.safeParse(event.metadata.causation);
  const mutation: MemoryMutation = {
    op: OPS[parsed.type],
    profile: event.streamName.slice(MEMORY_PREFIX.length),
    entryId: data.entryId,
    target: data.target,
    previousContent: data.previousContent ?? null,
    content: data.content ?? null,
    selector: data.selector ?? null,
    eventId: event.id,
    stream: event.streamName,
    revision: event.revision,
    position: event.position,
    causation: cause.success ? cause.data : {},
  };
  if (mutation.op !== 'add' && mutation.previousContent === null) {
    return { kind: 'skip', mutation, reason: `${parsed.type} without previousContent (legacy data): not mirrored destructively` };
  }
  return { kind: 'deliver', mutation };
};
