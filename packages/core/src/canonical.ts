import { createHash } from 'node:crypto';
import { invalidInput } from './errors.js';

/**
 * Canonical JSON: object keys sorted by code unit, no white space, finite numbers only.
 * Two equal JSON values always encode to the same string, on every backend.
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
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      throw invalidInput(`Not a JSON value: ${typeof value}`);
  }
};

export const sha256Hex = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

export const digestOf = (value: unknown): string => `sha256:${sha256Hex(canonicalJson(value))}`;
