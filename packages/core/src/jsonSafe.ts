import type { RecordedEvent } from './envelope.js';
import type { JsonValue } from './json.js';

/** Revisions and positions are bigint inside; JSON surfaces print them as numbers (as strings past 2^53). */
export const jsonSafe = (value: unknown): JsonValue => {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (value === null || typeof value !== 'object') return (value === undefined ? null : value) as JsonValue;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  const out: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = jsonSafe(item);
  return out;
};

export const toJson = (value: unknown, space?: number): string => JSON.stringify(jsonSafe(value), null, space);

/** The one JSON shape of a recorded event on every surface (CLI, HTTP, exports). */
export const eventToJson = (event: RecordedEvent) => ({
  stream: event.streamName,
  id: event.id,
  type: event.type,
  revision: jsonSafe(event.revision),
  position: jsonSafe(event.position),
  data: event.data,
  metadata: event.metadata,
  created: event.created,
});
