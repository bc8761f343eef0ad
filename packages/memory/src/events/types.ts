/** The two memory targets: the agent's notes (MEMORY.md) and the user profile (USER.md). */
export const MEMORY_TARGETS = ['memory', 'user'] as const;
export type MemoryTarget = (typeof MEMORY_TARGETS)[number];

export const MEMORY_ENTRY_ADDED = 'memory.entry_added';
export const MEMORY_ENTRY_REPLACED = 'memory.entry_replaced';
export const MEMORY_ENTRY_REMOVED = 'memory.entry_removed';

export const MEMORY_EVENT_TYPES = [MEMORY_ENTRY_ADDED, MEMORY_ENTRY_REPLACED, MEMORY_ENTRY_REMOVED] as const;
export type MemoryEventType = (typeof MEMORY_EVENT_TYPES)[number];

/** The schema version every memory event is written with (`data.v`). */
export const MEMORY_EVENT_VERSION = 1;

export interface EntryAdded {
  v: 1;
  entryId: string;
  target: MemoryTarget;
  content: string;
}

/**
 * `previousContent` is the full entry the authoritative store selected (identity); `selector` is
 * the caller's text (intent). Imported legacy data may lack both: such events are never mirrored
 * destructively.
 */
export interface EntryReplaced {
  v: 1;
  entryId: string;
  target: MemoryTarget;
  previousContent?: string;
  content: string;
  selector?: string;
}

export interface EntryRemoved {
  v: 1;
  entryId: string;
  target: MemoryTarget;
  previousContent?: string;
  selector?: string;
}

export type MemoryEvent =
  | { type: typeof MEMORY_ENTRY_ADDED; data: EntryAdded }
  | { type: typeof MEMORY_ENTRY_REPLACED; data: EntryReplaced }
  | { type: typeof MEMORY_ENTRY_REMOVED; data: EntryRemoved };

/** What caused a mutation; kept in each event's metadata as `causation`. */
export interface Causation {
  sessionId?: string;
  turnId?: string;
}
