/**
 * The metadata text the ledger writes when the writer gave none (JSON.stringify of `{ prevHash, hash }`):
 * `{"prevHash":"<64 hex>","hash":"<64 hex>"}` or `{"prevHash":null,"hash":"<64 hex>"}`, the hex
 * digits lowercase. Such a text parses to an object with those two keys, in that order, each a string
 * of those digits (or null): nothing in it is escaped, so its parts can be compared where they stand,
 * without JSON.parse.
 *
 * usualMetadata checks only the frame (length, the fixed text around the digits); the digits are
 * confirmed by the caller (usualHashes.ts): the hash's by comparing them with the computed hash
 * (64 lowercase hex digits, so equal only to such digits), the prevHash's likewise or by isHex64.
 */
const HEX_PREV = '{"prevHash":"';
const NULL_PREV = '{"prevHash":null,"hash":"';
const MIDDLE = '","hash":"';

/** Where the prevHash's digits start in a text with one. */
export const PREV_AT = HEX_PREV.length;
/** Where the hash's digits start: after a prevHash of 64 digits, and after a null one. */
export const HASH_AT_HEX = PREV_AT + 64 + MIDDLE.length;
export const HASH_AT_NULL = NULL_PREV.length;

/** Whether the 64 characters from `at` are lowercase hex digits. */
export const isHex64 = (text: string, at: number): boolean => {
  if (text.length < at + 64) return false;
  for (let index = at; index < at + 64; index += 1) {
    const code = text.charCodeAt(index);
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false;
  }
  return true;
};

/** `"}` right after the 64 characters from `at`, and nothing after it. */
const closesAt = (text: string, at: number): boolean => text.length === at + 66 && text.charCodeAt(at + 64) === 34 && text.charCodeAt(at + 65) === 125;

/**
 * Where the hash's 64 characters start when `text` has the usual frame (HASH_AT_HEX: with a prevHash,
 * HASH_AT_NULL: with a null one), else -1. The characters themselves are not checked here.
 */
export const usualMetadata = (text: string): number => {
  if (text.length === HASH_AT_NULL + 66) return text.startsWith(NULL_PREV) && closesAt(text, HASH_AT_NULL) ? HASH_AT_NULL : -1;
  return text.length === HASH_AT_HEX + 66 && text.startsWith(HEX_PREV) && text.startsWith(MIDDLE, PREV_AT + 64) && closesAt(text, HASH_AT_HEX) ? HASH_AT_HEX : -1;
};
