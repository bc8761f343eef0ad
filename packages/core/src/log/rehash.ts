import { chainHash, HASH, PREV_HASH } from '../chain.js';
import type { JsonObject, JsonValue } from '../json.js';
import { nestsDeeperThan } from '../jsonDepth.js';
import type { StoredEventText } from './port.js';

/** An event's stored columns as verify needs them (the JSON text unparsed). */
export type RehashInput = Omit<StoredEventText, 'position' | 'created'>;

export type Rehashed = { hash: string; stored: JsonValue | undefined; prev: JsonValue } | { error: string };

/** The metadata without its hash: `{ [HASH]: stored, ...rest }`, without the spread where the ledger wrote only prevHash and hash. */
const withoutHash = (metadata: JsonObject): JsonObject => {
  const keys = Object.keys(metadata);
  if (keys.length === 2 && keys[0] === PREV_HASH && keys[1] === HASH) return { [PREV_HASH]: metadata[PREV_HASH]! };
  const { [HASH]: _stored, ...rest } = metadata;
  return rest;
};

/**
 * Flat data (primitive values) whose keys are not in canonical order, as writers usually build it: a
 * copy with the keys inserted in sorted order, so chainText writes the whole chain text in one native
 * JSON.stringify instead of the key-by-key canonical encoder. The copy has the same keys and values,
 * so the same canonical text; chainText checks the order itself and falls back when the copy's
 * property order is not the sorted one (integer-like keys). `__proto__` would not copy as a key: left as is.
 */
const sortedFlat = (data: JsonValue): JsonValue => {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const keys = Object.keys(data);
  if (keys.length < 2) return data;
  keys.sort();
  const copy: JsonObject = {};
  for (const key of keys) {
    const value = data[key]!;
    if (key === '__proto__' || (value !== null && typeof value === 'object')) return data;
    copy[key] = value;
  }
  return copy;
};

/**
 * Stored JSON nested deeper than this is a break, not hashed: no surface stores it (MAX_JSON_DEPTH,
 * 100) and the canonical encoder's recursion would end verify with a stack overflow (at about 5,000).
 */
export const REHASH_MAX_DEPTH = 1000;

/** The chain hash an event's content gives, and its stored hash and prevHash; or why it cannot be read. */
export const rehash = (event: RehashInput): Rehashed => {
  let data: JsonValue;
  let metadata: JsonObject;
  if (typeof event.data === 'string' && nestsDeeperThan(event.data, REHASH_MAX_DEPTH)) return { error: `does not parse: data nests deeper than ${REHASH_MAX_DEPTH} levels` };
  if (typeof event.metadata === 'string' && nestsDeeperThan(event.metadata, REHASH_MAX_DEPTH)) return { error: `does not parse: metadata nests deeper than ${REHASH_MAX_DEPTH} levels` };
  try {
    data = JSON.parse(event.data) as JsonValue;
    metadata = JSON.parse(event.metadata) as JsonObject;
  } catch (error) {
    return { error: `does not parse: ${(error as Error).message}` };
  }
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return { error: 'does not parse: metadata is not an object' };
  const rest = withoutHash(metadata);
  try {
    const hash = chainHash({ stream: event.stream, revision: event.revision, id: event.id, type: event.type, data: sortedFlat(data), metadata: rest });
    return { hash, stored: metadata[HASH], prev: rest[PREV_HASH] ?? null };
  } catch (error) {
    // A number past a double parses to Infinity, which no event holds: a break, not the end of verify (outside test, session 26).
    return { error: `parses to a value no event holds: ${(error as Error).message}` };
  }
};
