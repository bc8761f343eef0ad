import { storeUnavailable } from '@session-ledger/core';
import type { StreamRow } from './statements.js';

/**
 * A file changed behind the store's back so that the store cannot go on (a ledger_meta value, a
 * stream's state row): store_unavailable (exit 4, HTTP 503) naming what, never an internal error.
 * `audit verify` names every break the log can see.
 */
export const damaged = (what: string) => storeUnavailable(`The ledger file is damaged: ${what}`, 'LEDGER_DAMAGED');

/**
 * A stream's state row as read, or damaged when a cell is no whole number (text, a REAL, NULL written
 * behind the store's back): appends would otherwise decide on it ("expected 2, actual abc").
 */
export const checkedStateRow = <Row extends StreamRow>(name: string, row: Row): Row => {
  for (const column of ['last_revision', 'first_live', 'tombstoned'] as const) {
    const cell: unknown = row[column];
    if (typeof cell !== 'bigint') throw damaged(`stream ${JSON.stringify(name)}'s state holds ${column} ${cell === null ? 'NULL' : JSON.stringify(String(cell))}, not a whole number`);
  }
  return row;
};

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
