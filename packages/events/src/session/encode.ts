import { invalidInput, type JsonObject, type JsonValue } from '@session-ledger/core';
import { parseVersion } from '../versioned.js';
import { invalidEvent } from './issues.js';
import { SESSION_SCHEMAS } from './registry.js';
import { isSessionEventType, SCHEMA_VERSION_KEY, type SessionEvent } from './types.js';

/** An event ready for the ledger, minus its id. */
export interface EncodedSessionEvent {
  type: string;
  data: JsonValue;
  metadata: JsonObject;
}

/**
 * Validation on write: the data must match the current schema of its type. Returns the data as
 * parsed (unknown keys refused, defaults applied) and the schema version in the metadata.
 */
export const encodeSessionEvent = (event: SessionEvent): EncodedSessionEvent => {
  if (!isSessionEventType(event.type)) throw invalidInput(`Unknown session event type: ${String(event.type)}`, 'type');
  const schemas = SESSION_SCHEMAS[event.type];
  const parsed = parseVersion(schemas.versions[schemas.current - 1]!, event.data);
  if ('error' in parsed) throw invalidEvent(`${event.type} event`, parsed.error);
  return { type: event.type, data: parsed.data as JsonValue, metadata: { [SCHEMA_VERSION_KEY]: schemas.current } };
};
