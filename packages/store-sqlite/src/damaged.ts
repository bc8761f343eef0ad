import { storeUnavailable } from '@session-ledger/core';

/**
 * A file changed behind the store's back so that the store cannot go on (a ledger_meta value, a
 * stream's state row): store_unavailable (exit 4, HTTP 503) naming what, never an internal error.
 * `audit verify` names every break the log can see.
 */
export const damaged = (what: string) => storeUnavailable(`The ledger file is damaged: ${what}`, 'LEDGER_DAMAGED');

/** A position as ledger_meta keeps it (decimal text below 2^63), or null. */
export const positionText = (text: unknown): bigint | null =>
  typeof text === 'string' && /^(0|[1-9][0-9]{0,18})$/.test(text) && BigInt(text) < 2n ** 63n ? BigInt(text) : null;

/** What a ledger_meta value that is no position is called, by the store and by verify's index check. */
export const notAPosition = (key: string, text: unknown): string => `ledger_meta '${key}' is ${text === undefined ? 'missing' : JSON.stringify(text)}, not a position`;

/** A position kept in ledger_meta, or damaged. */
export const metaPosition = (key: string, text: unknown): bigint => {
  const position = positionText(text);
  if (position === null) throw damaged(notAPosition(key, text));
  return position;
};
