import { invalidInput, type LedgerError } from '@session-ledger/core';
import * as E from 'fp-ts/lib/Either.js';
import { pythonStrip } from './pythonStrip.js';

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
