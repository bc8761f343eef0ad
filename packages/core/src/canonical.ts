import * as crypto from 'node:crypto';
import { invalidInput } from './errors.js';

/**
 * Canonical JSON: object keys sorted by code unit, no white space, finite numbers only.
 * Two equal JSON values always encode to the same string, on every backend.
 *
 * Written as plain loops appending to one string (no filter/sort/map/join arrays per object):
 * every appended event is encoded once for its chain hash, so this is on the write path.
 */
export const canonicalJson = (value: unknown): string => {
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
          out += (index === 0 ? '' : ',') + (index in value ? canonicalJson(value[index]) : '');
        }
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      // Default sort compares UTF-16 code units, which is the canonical key order.
      const keys = Object.keys(record).sort();
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
