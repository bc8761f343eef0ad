import { invalidInput, type JsonObject, type JsonValue } from '@session-ledger/core';
import { parseVersion } from '../versioned.js';
import { invalidEvent } from '../session/issues.js';
import { SCHEMA_VERSION_KEY } from '../session/types.js';
import { causationV1 } from './schemas.js';
import { MEMORY_SCHEMAS } from './registry.js';
import { isMemoryEventType, type Causation, type MemoryEvent } from './types.js';

const withoutUndefined = (value: Record<string, unknown>): JsonObject =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as JsonObject;

export interface EncodedMemoryEvent {
  type: string;
  data: JsonValue;
  metadata: JsonObject;
}

/**
 * Validation on write: the data must match the current schema of its type. The metadata carries
 * the schema version and the causation (always present, possibly empty), plus `extra` keys.
 */
export const encodeMemoryEvent = (event: MemoryEvent, causation: Causation = {}, extra: JsonObject = {}): EncodedMemoryEvent => {
  if (!isMemoryEventType(event.type)) throw invalidInput(`Unknown memory event type: ${String(event.type)}`, 'type');
  const schemas = MEMORY_SCHEMAS[event.type];
  const parsed = parseVersion(schemas.versions[schemas.current - 1]!, event.data);
  if ('error' in parsed) throw invalidEvent(`${event.type} event`, parsed.error);
  const cause = causationV1.safeParse(causation);
  if (!cause.success) throw invalidEvent('causation', cause.error);
  return {
    type: event.type,
    data: parsed.data as JsonValue,
    metadata: { ...extra, [SCHEMA_VERSION_KEY]: schemas.current, causation: withoutUndefined(cause.data) },
  };
};
