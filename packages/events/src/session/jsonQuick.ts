import { hasLoneSurrogate, type JsonObject, type JsonValue } from '@session-ledger/core';

/**
 * Hand-written counterparts of the schema's `z.json()` records, `toolCalls` and `tokenCounts`, for
 * the quick check of message.appended. Each returns what zod's parse returns (a fresh copy, keys in
 * the input's order) or undefined when the value is anything but the plain shape, so zod decides and
 * words the error. Stricter than zod, never looser: besides zod's rules (finite numbers, plain
 * objects, string keys, no holes) it leaves to the schema every string (key or value) that is not
 * well-formed UTF-16, a `__proto__` key (zod drops it), a symbol key (zod refuses it), and nesting
 * deeper than MAX_DEPTH. Non-enumerable keys are skipped, as zod skips them.
 */
const MAX_DEPTH = 64;

/** A literal-made object (or one without a prototype): the only objects zod's records take as they are. */
const isPlain = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** A key zod keeps as it is: not `__proto__` (dropped), well-formed. */
const keyOk = (key: string): boolean => key !== '__proto__' && !hasLoneSurrogate(key);

/** Symbol keys: zod's records refuse them, `for … in` does not see them. */
const hasSymbols = (value: object): boolean => Object.getOwnPropertySymbols(value).length > 0;

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

/**
 * `z.record(z.string(), z.json())`: a plain object of JSON values. `for … in` walks the own
 * enumerable string keys in the order zod does (a plain object inherits none).
 */
export const copyJsonObject = (value: unknown, depth = 0): JsonObject | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth >= MAX_DEPTH || !isPlain(value)) return undefined;
  const out: JsonObject = {};
  for (const key in value) {
    if (!keyOk(key)) return undefined;
    const item = copyValue((value as Record<string, unknown>)[key], depth + 1);
    if (item === undefined) return undefined;
    out[key] = item;
  }
  return hasSymbols(value) ? undefined : out;
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
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !isPlain(value)) return undefined;
  const out: Record<string, number> = {};
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (!keyOk(key) || typeof item !== 'number' || !Number.isSafeInteger(item) || item < 0) return undefined;
    out[key] = item;
  }
  return hasSymbols(value) ? undefined : out;
};
