import { ledgerError, type JsonValue } from '@session-ledger/core';
import { entryAddedSchema, entryRemovedSchema, entryReplacedSchema } from './schemas.js';
import {
  MEMORY_ENTRY_ADDED,
  MEMORY_ENTRY_REMOVED,
  MEMORY_ENTRY_REPLACED,
  MEMORY_EVENT_TYPES,
  MEMORY_EVENT_VERSION,
  type MemoryEvent,
  type MemoryEventType,
} from './types.js';

export const isMemoryEventType = (type: string): type is MemoryEventType =>
  (MEMORY_EVENT_TYPES as readonly string[]).includes(type);

const versionOf = (data: JsonValue): unknown =>
  typeof data === 'object' && data !== null && !Array.isArray(data) ? data.v : undefined;

/**
 * Validates a stored memory event. Returns null for a type that is not a memory event;
 * throws unsupported_version for a newer schema and invalid_input for a malformed one.
 */
export const parseMemoryEvent = (event: { type: string; data: JsonValue }): MemoryEvent | null => {
  if (!isMemoryEventType(event.type)) return null;
  const version = versionOf(event.data);
  if (typeof version === 'number' && version > MEMORY_EVENT_VERSION) {
    throw ledgerError('unsupported_version', `${event.type} v${version} is newer than this reader (v${MEMORY_EVENT_VERSION})`, {
      eventType: event.type,
      version,
      supported: MEMORY_EVENT_VERSION,
    });
  }
  const schema =
    event.type === MEMORY_ENTRY_ADDED ? entryAddedSchema : event.type === MEMORY_ENTRY_REPLACED ? entryReplacedSchema : entryRemovedSchema;
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) {
    throw ledgerError('invalid_input', `Malformed ${event.type}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, { field: 'data' });
  }
  return { type: event.type, data: parsed.data } as MemoryEvent;
};
