import * as crypto from 'node:crypto';
import { invalidInput } from './errors.js';

/**
 * Whether every value is a JSON primitive (or undefined): then native JSON.stringify with the sorted
 * keys as its property list writes exactly the canonical text (same escaping and numbers, undefined
 * left out), without a string built key by key. Event data and metadata are mostly this shape.
 */
const isFlat = (record: Record<string, unknown>, keys: string[]): boolean => {
  for (const key of keys) {
    const item = record[key];
    switch (typeof item) {
      case 'string':
      case 'boolean':
      case 'undefined':
        break;
      case 'number':
        if (!Number.isFinite(item)) return false;
        break;
      case 'object':
        if (item !== null) return false;
        break;
      default:
        return false;
    }
  }
  return true;
};

/** A literal-made object: JSON.stringify of anything else (a Date, a boxed string) would call its toJSON or unbox it. */
export const isPlainObject = (record: object): boolean => {
  const prototype = Object.getPrototypeOf(record);
  return prototype === Object.prototype || prototype === null;
};

/**
 * Sorts keys in place by UTF-16 code units (as the default sort does): a few keys (event metadata) by
 * insertion, without the work array Array.prototype.sort allocates; more with the default sort.
 */
export const sortKeys = (keys: string[]): string[] => {
  if (keys.length > 16) return keys.sort();
  for (let index = 1; index < keys.length; index += 1) {
    const key = keys[index]!;
    let at = index - 1;
    while (at >= 0 && keys[at]! > key) {
      keys[at + 1] = keys[at]!;
      at -= 1;
    }
    keys[at + 1] = key;
  }
  return keys;
};

const isSorted = (keys: string[]): boolean => {
  for (let index = 1; index < keys.length; index += 1) if (keys[index - 1]! >= keys[index]!) return false;
  return true;
};

/** How deep isCanonicalAsIs looks; deeper values take the generic encoder. */
const MAX_DEPTH = 32;

/** A value inside an object: also undefined (left out by both encoders). */
const memberAsIs = (item: unknown, depth: number): boolean => item === undefined || asIs(item, depth);

const asIs = (value: unknown, depth: number): boolean => {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        // An own toJSON would be called by JSON.stringify; a hole or undefined is written differently.
        if (Object.getPrototypeOf(value) !== Array.prototype || (value as { toJSON?: unknown }).toJSON !== undefined) return false;
        for (let index = 0; index < value.length; index += 1) {
          if (!(index in value) || !asIs(value[index], depth + 1)) return false;
        }
        return true;
      }
      if (!isPlainObject(value)) return false;
      // for-in lists a plain object's keys in Object.keys' (and JSON.stringify's) order, without an array.
      let previous: string | undefined;
      for (const key in value) {
        if (!Object.hasOwn(value, key) || (previous !== undefined && previous >= key)) return false;
        if (!memberAsIs((value as Record<string, unknown>)[key], depth + 1)) return false;
        previous = key;
      }
      return true;
    }
    default:
      return false;
  }
};

/**
 * A copy of a plain object with its own keys in canonical order, when each value is canonical as is
 * (isCanonicalAsIs): native JSON.stringify then writes the copy's canonical text. Undefined for
 * anything else, for a key starting with a digit (JavaScript lists integer-like keys first,
 * whatever the order they were added in) and for `__proto__`. Event metadata is such an object (the ledger puts its
 * `prevHash` first), so the chain text can be one native JSON.stringify.
 */
export const sortedAsIs = (value: unknown): Record<string, unknown> | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !isPlainObject(value)) return undefined;
  const keys = sortKeys(Object.keys(value));
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const first = key.charCodeAt(0);
    // An assignment to `__proto__` would set the copy's prototype, not a key.
    if ((first >= 48 && first <= 57) || key === '__proto__') return undefined;
    const item = (value as Record<string, unknown>)[key];
    if (!memberAsIs(item, 1)) return undefined;
    out[key] = item;
  }
  return out;
};

/**
 * Whether native JSON.stringify already writes `value`'s canonical text: a JSON primitive, or plain
 * objects and arrays of them, at every depth, whose keys are in canonical order (writers build them
 * so). Then one native call writes the whole, with the same escaping and numbers, undefined members
 * left out; callers that embed such values in a larger object (the chain hash's six keys) can
 * stringify the whole at once.
 */
export const isCanonicalAsIs = (value: unknown): boolean => asIs(value, 0);

/**
 * Canonical JSON: object keys sorted by code unit, no white space, finite numbers only.
 * Two equal JSON values always encode to the same string, on every backend.
 *
 * Written as plain loops appending to one string (no filter/sort/map/join arrays per object):
 * every appended event is encoded once for its chain hash, so this is on the write path. A value
 * already in canonical order at every depth (isCanonicalAsIs: most event data) is written by one
 * native JSON.stringify, and so is a plain object of JSON primitives in any key order.
 */
export const canonicalJson = (value: unknown): string =>
  typeof value === 'object' && value !== null && asIs(value, 0) ? JSON.stringify(value) : encode(value);

const encode = (value: unknown): string => {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw invalidInput(`Not a JSON number: ${value}`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let index = 0; index < value.length; index += 1) {
          // A hole encodes as nothing, as Array.prototype.join did in the earlier encoder.
          out += (index === 0 ? '' : ',') + (index in value ? encode(value[index]) : '');
        }
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const own = Object.keys(record);
      // Keys already in canonical order (writers build them so): JSON.stringify writes them as they are.
      const plain = isPlainObject(record);
      if (plain && isSorted(own) && isFlat(record, own)) return JSON.stringify(record);
      // Default sort compares UTF-16 code units, which is the canonical key order.
      const keys = sortKeys(own);
      if (plain && isFlat(record, keys)) return JSON.stringify(record, keys);
      let out = '{';
      let first = true;
      for (const key of keys) {
        const item = record[key];
        if (item === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw invalidInput(`Not a JSON value: ${typeof value}`);
  }
};

/** One-shot hashing where Node has it (>= 20.12): no Hash object per call. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: 'hex') => string }).hash;

export const sha256Hex = (text: string | Buffer): string =>
  oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');

export const digestOf = (value: unknown): string => `sha256:${sha256Hex(canonicalJson(value))}`;
