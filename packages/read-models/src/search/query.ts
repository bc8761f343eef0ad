import { invalidInput } from '@session-ledger/core';

/** The trigram tokenizer matches substrings of 3 characters (code points) or more. */
export const MIN_TERM = 3;

export interface ParsedQuery {
  /** The FTS5 MATCH expression: every long term as a quoted string, ANDed. */
  match: string;
  /** Terms shorter than the tokenizer can match: each must still occur (checked with instr on the matched rows). */
  short: string[];
}

const CONTROLS = /[\u0000-\u001F\u007F]/g;

const quoted = (term: string): string => `"${term.replaceAll('"', '""')}"`;

/**
 * A person's query, never FTS5 syntax: split on whitespace, each term a quoted string (so `"`, `*`,
 * `NEAR(`, `-`, `AND` are text to find), all terms must occur. Terms of 1-2 characters cannot be
 * looked up in a trigram index; they filter the rows the longer terms found. A query with no term of
 * 3 characters is refused (`invalid_input`: HTTP 400, exit 2).
 */
export const parseQuery = (text: string, field = 'q'): ParsedQuery => {
  const terms = text.replace(CONTROLS, ' ').split(/\s+/u).filter((term) => term !== '');
  const long = terms.filter((term) => [...term].length >= MIN_TERM);
  if (long.length === 0) throw invalidInput(`${field} needs a word of at least ${MIN_TERM} characters (the index matches substrings of 3 or more): ${JSON.stringify(text)}`, field);
  return { match: long.map(quoted).join(' AND '), short: terms.filter((term) => [...term].length < MIN_TERM) };
};
