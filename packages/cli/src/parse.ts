import { readFileSync } from 'node:fs';
import { illFormedMessage, illFormedPath, inexactIntegerMessage, invalidInput, MAX_JSON_DEPTH, repeatedKeyMessage, repeatsKeys, scanJsonText, parseExpected, type ExpectedRevision, type JsonValue } from '@session-ledger/core';

/** JSON text whose strings must all be well-formed: a "\ud800" escape would be stored as U+FFFD. */
export const parseWellFormedJson = (what: string, text: string, field?: string): JsonValue => {
  const scan = scanJsonText(text);
  if (scan.deeper) throw invalidInput(`${what} nests JSON deeper than ${MAX_JSON_DEPTH} levels`, field);
  if (scan.inexact !== undefined) throw invalidInput(inexactIntegerMessage(what, scan.inexact), field);
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    throw invalidInput(`${what} is not valid JSON: ${(error as Error).message}`, field);
  }
  if (repeatsKeys(scan, value)) throw invalidInput(repeatedKeyMessage(what), field);
  const illFormed = illFormedPath(value, '$');
  if (illFormed !== null) throw invalidInput(illFormedMessage(`${what} (at ${illFormed})`, illFormed), field);
  return value;
};

/** Option parsers: each turns a string into a value or raises invalid_input (exit 2) with a one-line reason. */
export const parseJsonOption = (name: string, text: string): JsonValue => parseWellFormedJson(`--${name}`, text, name);

/**
 * A file (or `-`, standard input) that must be UTF-8: invalid bytes are refused, not decoded to U+FFFD,
 * so what is stored is what the file says. `keepBom`: a leading byte-order mark is part of the text (a
 * message's content: stripping it stored other bytes than the file's; outside test, session 23); without
 * it, a JSON file's mark is dropped, as RFC 8259 lets a parser do.
 */
export const readUtf8File = (what: string, path: string, field?: string, keepBom = false): string => {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (error) {
    throw invalidInput(`Cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, field);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: keepBom }).decode(bytes);
  } catch {
    throw invalidInput(`Refused: ${what} ${path} is not valid UTF-8; nothing was stored`, field);
  }
};

/** Revisions and positions are signed 64-bit integers in every store: 2^63 and above name nothing. */
const POSITION_LIMIT = 2n ** 63n;

export const parseExpectedOption = (text: string): ExpectedRevision => {
  const expected = parseExpected(text);
  if (expected === null || (typeof expected === 'bigint' && expected >= POSITION_LIMIT)) {
    throw invalidInput(`--expected-revision must be any, no_stream, stream_exists or a revision number below 2^63: ${text}`, 'expected-revision');
  }
  return expected;
};

/** A revision or commit position: a whole number below 2^63 (what the store can hold; more was an internal error). */
const parseBigInt = (label: string, name: string, text: string): bigint => {
  if (!/^\d+$/.test(text) || BigInt(text) >= POSITION_LIMIT) throw invalidInput(`${label} must be a whole number below 2^63: ${text}`, name);
  return BigInt(text);
};

export const parseBigIntOption = (name: string, text: string): bigint => parseBigInt(`--${name}`, name, text);

/** A positional argument, named as the usage line names it (`audit prove STREAM REVISION`). */
export const parseBigIntArgument = (name: string, text: string): bigint => parseBigInt(`the ${name} argument`, name, text);

export const parseCountOption = (name: string, text: string): number => {
  if (!/^\d+$/.test(text)) throw invalidInput(`--${name} must be a whole number: ${text}`, name);
  if (!Number.isSafeInteger(Number(text))) throw invalidInput(`--${name} must be below 2^53: ${text}`, name);
  return Number(text);
};
