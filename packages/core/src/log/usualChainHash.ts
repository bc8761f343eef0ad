import { sha256Hex, sortKeys } from '../canonical.js';
import { canonicalFlatText } from './canonicalFlatText.js';
import { isPlainString } from './plainString.js';
import { HASH_AT_NULL, PREV_AT } from './usualMetadata.js';

/** An event's stored columns as a range scan reads them (the revision a safe integer). */
export interface UsualEvent {
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** String.prototype.isWellFormed (Node 20; ES2024, past this project's lib): no lone surrogate. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * A member's value as JSON.stringify writes it, for a value parsed from a text without a backslash
 * whose characters are well formed: a string then holds no quote, backslash, control character (a raw
 * one is no JSON) or lone surrogate, none of what JSON.stringify escapes, so it is written as it is
 * between quotes; a finite number as String writes it (JSON.stringify's own rule). Undefined for anything else.
 */
const plainValueText = (value: unknown): string | undefined => {
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return value === null ? 'null' : undefined;
};

/**
 * The canonical text of stored data that is a flat object (string, boolean, null and finite number
 * values, as writers usually build it), its keys in code-unit order. The usual stored text (plain
 * strings, integers and literals, no white space: canonicalFlatText.ts) is cut and its members sorted
 * without a parse. Any other text without a backslash whose
 * characters are well formed (as the ledger writes data without escapes) is written member by member
 * (plainValueText); any other as native JSON.stringify writes a copy with the keys inserted in that
 * order (the canonical encoder's escaping and numbers). Undefined for anything else (unreadable
 * text, another value, a nested value, a key starting with a digit, which JavaScript lists first
 * whatever the order it was added in, and `__proto__`, which would not copy as a key).
 */
const flatDataText = (text: string): string | undefined => {
  // The usual stored text: its members cut and sorted, without a parse.
  const members = canonicalFlatText(text);
  if (members !== undefined) return members;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  const keys = sortKeys(Object.keys(record));
  for (const key of keys) {
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || key === '__proto__') return undefined;
  }
  if (text.indexOf('\\') === -1 && isWellFormed !== undefined && isWellFormed.call(text)) {
    // Keys too hold nothing to escape.
    let out = '{';
    for (let index = 0; index < keys.length; index += 1) {
      const value = plainValueText(record[keys[index]!]);
      if (value === undefined) return undefined;
      out += `${index === 0 ? '"' : ',"'}${keys[index]!}":${value}`;
    }
    return `${out}}`;
  }
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    const value = record[key];
    if (!(typeof value === 'string' || typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isFinite(value)))) return undefined;
    copy[key] = value;
  }
  return JSON.stringify(copy);
};

/**
 * The chain hash (chain.ts: SHA-256 of the canonical JSON of { data, id, metadata, revision, stream,
 * type }, metadata without its hash) of an event whose metadata text is the usual one
 * (usualMetadata gave `hashAt`) and whose data is flat, written as one template in the keys' sorted
 * order: the metadata without its hash is `{"prevHash":"<digits>"}` or `{"prevHash":null}`, cut from
 * the text itself. Undefined for any other event: the caller rehashes it the general way.
 */
export const usualChainHash = (event: UsualEvent, hashAt: number): string | undefined => {
  const { stream, id, type } = event;
  if (typeof stream !== 'string' || typeof id !== 'string' || typeof type !== 'string' || typeof event.data !== 'string') return undefined;
  const data = flatDataText(event.data);
  if (data === undefined) return undefined;
  const metadata = hashAt === HASH_AT_NULL ? '{"prevHash":null}' : `${event.metadata.slice(0, PREV_AT + 65)}}`;
  // Strings JSON.stringify would write as they are between quotes (the usual ids, streams and types) are written so.
  if (isPlainString(id) && isPlainString(stream) && isPlainString(type)) {
    return sha256Hex(`{"data":${data},"id":"${id}","metadata":${metadata},"revision":"${event.revision}","stream":"${stream}","type":"${type}"}`);
  }
  return sha256Hex(
    `{"data":${data},"id":${JSON.stringify(id)},"metadata":${metadata},"revision":"${event.revision}","stream":${JSON.stringify(stream)},"type":${JSON.stringify(type)}}`,
  );
};
