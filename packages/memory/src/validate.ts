import { invalidInput, type LedgerError } from '@session-ledger/core';
import * as E from 'fp-ts/lib/Either.js';
import { PY_SPACE, pythonStrip } from './pythonStrip.js';

/** A line holding only § separates entries in the mirror files, so no entry may contain one. */
const hasDelimiterLine = (text: string) => text.split('\n').some((line) => line.trim() === '§');

/**
 * Text as Hermes reads it back from MEMORY.md: Python's text mode reads `\r\n` and `\r` as `\n`
 * (universal newlines). Kept with `\r`, one entry was two in Hermes (a `§` line behind a `\r`) or
 * another text (outside test, session 26).
 */
const asHermesReads = (text: string): string => pythonStrip(text.replace(/\r\n?/g, '\n'));

/** Entry text as stored: newlines and stripping as Hermes reads them (pythonStrip.ts), not empty, no delimiter line. */
export const cleanContent = (content: string, where: string): E.Either<LedgerError, string> => {
  const text = asHermesReads(content);
  if (text.length === 0) return E.left(invalidInput(`${where}: content is empty`, 'content'));
  if (hasDelimiterLine(text)) return E.left(invalidInput(`${where}: content holds a line with only §`, 'content'));
  return E.right(text);
};

export const cleanSelector = (selector: string, where: string): E.Either<LedgerError, string> => {
  const text = asHermesReads(selector);
  return text.length === 0 ? E.left(invalidInput(`${where}: selector (old) is empty`, 'old')) : E.right(text);
};

/**
 * cleanSelector's rule as one pattern, for the schemas that publish and apply it (the HTTP bodies):
 * some character Python's strip keeps.
 */
export const SELECTOR_PATTERN = `[^${PY_SPACE}]`;

/**
 * cleanContent's rule as one pattern: SELECTOR_PATTERN, and no line that trims to § once the text is
 * read as Hermes reads it (\r\n, \r and \n end a line; Python's strip takes spaces off both ends of
 * the text first). The HTTP document published any string, and the server refused these (outside
 * test, session 30).
 */
const DELIMITER_LINE = `(?:^[${PY_SPACE}]*|[\\r\\n])[^\\S\\r\\n]*§[^\\S\\r\\n]*(?:[\\r\\n]|[${PY_SPACE}]*$)`;
export const CONTENT_PATTERN = `^(?![\\s\\S]*?${DELIMITER_LINE})[\\s\\S]*${SELECTOR_PATTERN}`;
