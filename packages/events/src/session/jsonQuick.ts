import { hasLoneSurrogate, isPlainObject, type JsonObject, type JsonValue } from '@session-ledger/core';

/**
 * Hand-written counterparts of the schema's `z.json()` records, `toolCalls` and `tokenCounts`, for
 * the quick check of message.appended. Each returns what zod's parse returns (a fresh copy, keys in
 * the input's order) or undefined when the value is anything but the plain shape, so zod decides and
 * words the error. Stricter than zod, never looser: besides zod's rules (finite numbers, plain
 * objects, string keys, no holes) it leaves to the schema every string (key or value) that is not
 * well-formed UTF-16, a `__proto__` key (zod drops it), a non-enumerable or symbol key (zod skips or
 * refuses them), and nesting deeper than MAX_DEPTH.
 */
const MAX_DEPTH = 64;

/** The own keys of a plain object when all are enumerable strings, well-formed and not `__proto__`. */
const plainKeys = (value: object): string[] | undefined => {
  if (!isPlainObject(value)) return undefined;
  const keys = Reflect.ownKeys(value);
  for (const key of keys) {
    if (typeof key !== 'string' || key === '__proto__' || hasLoneSurrogate(key)) return undefined;
    if (!Object.prototype.propertyIsEnumerable.call(value, key)) return undefined;
  }
  return keys as string[];
};

const copyValue = (value: unknown, depth: number): JsonValue | undefined => {
  switch (typeof value) {
    case 'string':
      return hasLoneSurrogate(value) ? undefined : value;
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : undefined;
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) return copyArray(value, depth);
      return copyJsonObject(value, depth);
    default:
      return undefined;
  }
};

const copyArray = (value: unknown[], depth: number): JsonValue[] | undefined => {
  if (depth >= MAX_DEPTH) return undefined;
  const out: JsonValue[] = new Array(value.length);
  for (let index = 0; index < value.length; index += 1) {
    const item = copyValue(value[index], depth + 1);
    if (item === undefined) return undefined;
    out[index] = item;
  }
  return out;
};

/** `z.record(z.string(), z.json())`: a plain object of JSON values. */
export const copyJsonObject = (value: unknown, depth = 0): JsonObject | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth >= MAX_DEPTH) return undefined;
  const keys = plainKeys(value);
  if (keys === undefined) return undefined;
  const out: JsonObject = {};
  for (const key of keys) {
    const item = copyValue((value as Record<string, unknown>)[key], depth + 1);
    if (item === undefined) return undefined;
    out[key] = item;
  }
  return out;
};

/** `z.array(jsonObject)`: the tool calls. */
export const copyToolCalls = (value: unknown): JsonObject[] | undefined => {
  if (!Array.isArray(value)) return undefined;
  const out: JsonObject[] = new Array(value.length);
  for (let index = 0; index < value.length; index += 1) {
    const item = copyJsonObject(value[index], 1);
    if (item === undefined) return undefined;
    out[index] = item;
  }
  return out;
};

/** `z.object({}).catchall(z.number().int().nonnegative())`: token counts by kind. */
export const copyTokenCounts = (value: unknown): Record<string, number> | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = plainKeys(value);
  if (keys === undefined) return undefined;
  const out: Record<string, number> = {};
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item !== 'number' || !Number.isSafeInteger(item) || item < 0) return undefined;
    out[key] = item;
  }
  return out;
};
