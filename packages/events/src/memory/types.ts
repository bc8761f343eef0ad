import type { z } from 'zod';
import type { causationV1, entryAddedV1, entryRemovedV1, entryReplacedV1 } from './schemas.js';

/** The two memory targets: the agent's notes (MEMORY.md) and the user profile (USER.md). */
export const MEMORY_TARGETS = ['memory', 'user'] as const;
export type MemoryTarget = (typeof MEMORY_TARGETS)[number];

export type EntryAdded = z.infer<typeof entryAddedV1>;
export type EntryReplaced = z.infer<typeof entryReplacedV1>;
export type EntryRemoved = z.infer<typeof entryRemovedV1>;
/** What caused a mutation; kept in each memory event's metadata as `causation`. */
export type Causation = z.infer<typeof causationV1>;

/** Every memory event type and the current shape of its data. */
export interface MemoryEventDataMap {
  'memory.entry_added': EntryAdded;
  'memory.entry_replaced': EntryReplaced;
  'memory.entry_removed': EntryRemoved;
}

export type MemoryEventType = keyof MemoryEventDataMap;

export const MEMORY_EVENT_TYPES: readonly MemoryEventType[] = ['memory.entry_added', 'memory.entry_replaced', 'memory.entry_removed'];

export const isMemoryEventType = (type: string): type is MemoryEventType => (MEMORY_EVENT_TYPES as readonly string[]).includes(type);

/** A memory event about to be written, or as the reducer sees it: its type and current-version data. */
export type MemoryEvent = { [K in MemoryEventType]: { type: K; data: MemoryEventDataMap[K] } }[MemoryEventType];

/** Where a stored memory event sits, and what caused it. */
export interface MemoryRecordEnvelope {
  /** The profile whose stream (`memory-<profile>`) holds the event. */
  profile: string;
  eventId: string;
  revision: bigint;
  position: bigint;
  created: string;
  storedVersion: number;
  causation: Causation;
}

/** A stored memory event, validated and upcast to the current version. */
export type MemoryRecord = { [K in MemoryEventType]: MemoryRecordEnvelope & { type: K; data: MemoryEventDataMap[K] } }[MemoryEventType];
