import { jsonSafe, type JsonValue } from '@session-ledger/core';

/**
 * A deep copy of a JSON value whose object keys are in canonical order (sorted by code unit), so
 * that JSON.stringify of it IS its canonical JSON (core's `canonicalJson`), at native speed: except
 * for array-index keys ("9", "10"), which JavaScript always lists in numeric order (contentDigest
 * detects those and encodes canonically).
 */
export const canonicalCopy = (value: unknown): JsonValue => {
  if (value === null || typeof value !== 'object') return jsonSafe(value);
  if (Array.isArray(value)) return value.map(canonicalCopy);
  const record = value as Record<string, unknown>;
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(record).sort()) if (record[key] !== undefined) out[key] = canonicalCopy(record[key]);
  return out;
};
