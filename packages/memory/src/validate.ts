import { invalidInput, type LedgerError } from '@session-ledger/core';
import * as E from 'fp-ts/lib/Either.js';
import { pythonStrip } from './pythonStrip.js';

/** A line holding only § separates entries in the mirror files, so no entry may contain one. */
const hasDelimiterLine = (text: string) => text.split('\n').some((line) => line.trim() === '§');

/** Entry text as stored: stripped as Hermes strips it (pythonStrip.ts), not empty, no delimiter line. */
export const cleanContent = (content: string, where: string): E.Either<LedgerError, string> => {
  const text = pythonStrip(content);
  if (text.length === 0) return E.left(invalidInput(`${where}: content is empty`, 'content'));
  if (hasDelimiterLine(text)) return E.left(invalidInput(`${where}: content holds a line with only §`, 'content'));
  return E.right(text);
};

export const cleanSelector = (selector: string, where: string): E.Either<LedgerError, string> => {
  const text = pythonStrip(selector);
  return text.length === 0 ? E.left(invalidInput(`${where}: selector (old) is empty`, 'old')) : E.right(text);
};
