import { ledgerError, notFound, type LedgerError } from '@session-ledger/core';
import * as E from 'fp-ts/lib/Either.js';
import type { MemoryTarget } from '@session-ledger/events';
import type { MemoryEntry } from '@session-ledger/projections';

/** The first 80 characters of a text, for messages. */
const shortened = (text: string): string => (text.length > 80 ? `${text.slice(0, 80)}…` : text);

/** A one-line preview of a candidate for messages (the full text is in the error details). */
const preview = (content: string): string => JSON.stringify(shortened(content));

/**
 * The one place a selector becomes an entry: exact match first, then a unique substring.
 * Several matches with the same content (legacy duplicates) select the first; several
 * different ones are ambiguous and list the candidates.
 */
export const selectEntry = (
  entries: readonly MemoryEntry[],
  target: MemoryTarget,
  selector: string,
): E.Either<LedgerError, MemoryEntry> => {
  const candidates = entries.filter((entry) => entry.target === target);
  const exact = candidates.find((entry) => entry.content === selector);
  if (exact) return E.right(exact);
  const matches = candidates.filter((entry) => entry.content.includes(selector));
  // A preview, never the selector itself: one of 5 MB came back four times in a 20 MB 404 (outside
  // test, session 34, helper-94 F16).
  if (matches.length === 0) {
    return E.left(notFound(`memory entry in ${target}`, shortened(selector)));
  }
  const distinct = [...new Set(matches.map((entry) => entry.content))];
  if (distinct.length > 1) {
    return E.left(
      ledgerError('ambiguous', `Selector ${JSON.stringify(selector)} matches ${distinct.length} different ${target} entries: ${distinct.map(preview).join(', ')}`, {
        selector,
        candidates: distinct,
      }),
    );
  }
  return E.right(matches[0]!);
};

/** The entry of `target` with this id (a list's or a receipt's): that one or none, whatever the others hold. */
export const entryById = (entries: readonly MemoryEntry[], target: MemoryTarget, entryId: string): E.Either<LedgerError, MemoryEntry> => {
  const entry = entries.find((candidate) => candidate.id === entryId && candidate.target === target);
  return entry ? E.right(entry) : E.left(notFound(`memory entry in ${target}`, shortened(entryId)));
};
