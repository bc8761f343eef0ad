import { chainHash, HASH, PREV_HASH } from '../chain.js';
import type { JsonObject, JsonValue } from '../json.js';

/** An event's stored columns as verify needs them (the JSON text unparsed). */
export interface RehashInput {
  stream: string;
  revision: bigint;
  id: string;
  type: string;
  data: string;
  metadata: string;
}

export type Rehashed = { hash: string; stored: JsonValue | undefined; prev: JsonValue } | { error: string };

/** The metadata without its hash: `{ [HASH]: stored, ...rest }`, without the spread where the ledger wrote only prevHash and hash. */
const withoutHash = (metadata: JsonObject): JsonObject => {
  const keys = Object.keys(metadata);
  if (keys.length === 2 && keys[0] === PREV_HASH && keys[1] === HASH) return { [PREV_HASH]: metadata[PREV_HASH]! };
  const { [HASH]: _stored, ...rest } = metadata;
  return rest;
};

/** The chain hash an event's content gives, and its stored hash and prevHash; or why it cannot be read. */
export const rehash = (event: RehashInput): Rehashed => {
  let data: JsonValue;
  let metadata: JsonObject;
  try {
    data = JSON.parse(event.data) as JsonValue;
    metadata = JSON.parse(event.metadata) as JsonObject;
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return { error: 'metadata is not an object' };
  const rest = withoutHash(metadata);
  const hash = chainHash({ stream: event.stream, revision: event.revision, id: event.id, type: event.type, data, metadata: rest });
  return { hash, stored: metadata[HASH], prev: rest[PREV_HASH] ?? null };
};
