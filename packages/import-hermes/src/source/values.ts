import { isUtf8 } from 'node:buffer';
import { illFormedPath, nestsDeeperThan, scanJsonText, type JsonObject, type JsonValue } from '@session-ledger/core';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A SQLite cell as JSON, losslessly: integers read as bigint become numbers when they fit in a
 * double exactly and strings otherwise; BLOBs become `{ "$base64": ... }`; REAL and TEXT pass through.
 */
export const cellToJson = (value: unknown): JsonValue => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return { $base64: value.toString('base64') };
  return String(value);
};

export const textOrNull = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return String(value);
};

/**
 * A text cell textOrNull cannot read without loss: a BLOB whose bytes are not UTF-8 (textOrNull
 * reads them with U+FFFD). The mapping keeps such a cell as it is (`{ "$base64": ... }`) beside the
 * text it made of it, as it keeps a time cell it cannot read.
 */
export const lossyText = (value: unknown): boolean => Buffer.isBuffer(value) && !isUtf8(value);

/**
 * `$`-named cells kept as they are (`$timestamp`, `$content`, ...), in code-unit order of their names
 * (as the canonical encoding writes them), before `columns`, whose names start with no `$`.
 */
export const keptBeside = (kept: JsonObject, columns: JsonObject = {}): JsonObject => {
  const out: JsonObject = {};
  for (const name of Object.keys(kept).sort()) out[name] = kept[name]!;
  return Object.assign(out, columns);
};

/** Keeps `value` as `$field` in `kept` (cellToJson) when lossyText reads it with U+FFFD. */
export const keepLossyText = (kept: JsonObject, field: string, value: unknown): void => {
  if (lossyText(value)) kept[`$${field}`] = cellToJson(value);
};

/**
 * A cell numberOrNull does not read exactly: text that is no number, a BLOB, an integer past 2^53.
 * The mapping keeps such a time cell as it is (cellToJson) beside what it made of it, so the raw value
 * Hermes held is never lost.
 */
export const inexactNumber = (value: unknown): boolean => {
  if (value === null || value === undefined) return false;
  if (typeof value === 'bigint') return value > MAX_SAFE || value < -MAX_SAFE;
  return numberOrNull(value) === null;
};

export const numberOrNull = (value: unknown): number | null => {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
};

/** The cells of `row` whose column is not in `known`, as JSON. */
export const extraColumns = (row: Record<string, unknown>, known: ReadonlySet<string>): JsonObject => {
  const out: JsonObject = {};
  for (const [column, value] of Object.entries(row)) if (!known.has(column)) out[column] = cellToJson(value);
  return out;
};

/**
 * Whether a parsed value can be kept as JSON: no key named "__proto__" (which a JavaScript copy drops)
 * and no deeper than the ledger takes (MAX_JSON_DEPTH). A lone surrogate is left to the session's
 * check, which refuses the session (split/sessionEvents.ts).
 */
export const keepableJson = (value: JsonValue, text = JSON.stringify(value)): boolean => {
  if (nestsDeeperThan(text)) return false;
  return !(illFormedPath(value, '$')?.endsWith('.__proto__') ?? false);
};

/** A JSON column's value; undefined when its text is no JSON, not keepableJson, or holds a whole number JSON.parse would change (inexactInteger): the caller then keeps the text as stored, never a changed value. */
export const parseStoredJson = (text: string): JsonValue | undefined => {
  // Python's json keeps a whole number of any size exactly; JSON.parse would change one past 2^53.
  const scan = scanJsonText(text);
  if (scan.deeper || scan.inexact !== undefined) return undefined;
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  return keepableJson(parsed, text) ? parsed : undefined;
};

export const parseJsonObject = (text: string | null): JsonObject | null => {
  const parsed = text ? parseStoredJson(text) : undefined;
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : null;
};
