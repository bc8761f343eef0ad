import { ledgerError, notFound, type LedgerError } from '@session-ledger/core';
import * as E from 'fp-ts/lib/Either.js';
import type { MemoryTarget } from '@session-ledger/events';
import type { MemoryEntry } from '@session-ledger/projections';

/** A one-line preview of a candidate for messages (the full text is in the error details). */
const preview = (content: string): string => JSON.stringify(content.length > 80 ? `${content.slice(0, 80)}…` : content);

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
  if (matches.length === 0) return E.left(notFound(`memory entry in ${target}`, selector));
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
