import { changesWholeNumber } from './wholeNumber.js';

/**
 * JSON nested deeper than this is refused before it is parsed, wherever JSON text enters (an HTTP
 * body, a CLI option or file, an imported export, a Hermes column): nothing the ledger stores needs
 * it, and the recursion that walks such a value is how it crashes a process.
 */
export const MAX_JSON_DEPTH = 100;

/** What one pass over JSON text (outside its strings) found. */
export interface JsonTextScan {
  /** It nests arrays and objects deeper than the limit asked (the pass stops there). */
  deeper: boolean;
  /** The first whole number JSON.parse would change (jsonNumbers.ts), when numbers were asked for. */
  inexact: string | undefined;
  /** Object members written (colons outside strings): more than the parsed value holds means a key was repeated (jsonKeys.ts). */
  members: number;
}

/** Digits, sign, point and exponent: the characters of a JSON number after its first. */
const isNumberChar = (code: number): boolean => (code >= 48 && code <= 57) || code === 46 || code === 101 || code === 69 || code === 43 || code === 45;

/**
 * One pass over JSON text, without parsing it: whether it nests deeper than `max`, and, with
 * `numbers`, the first whole number (also one written with a fraction or an exponent) whose double
 * JSON writes back with other digits (wholeNumber.ts).
 */
export const scanJsonText = (text: string, max: number = MAX_JSON_DEPTH, numbers = true): JsonTextScan => {
  let depth = 0;
  let inString = false;
  let inexact: string | undefined;
  let members = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92) i += 1;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 58) members += 1;
    else if (code === 91 || code === 123) {
      depth += 1;
      if (depth > max) return { deeper: true, inexact, members };
    } else if (code === 93 || code === 125) depth -= 1;
    else if (numbers && inexact === undefined && (code === 45 || (code >= 48 && code <= 57))) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end += 1;
      const literal = text.slice(i, end);
      i = end - 1;
      // Up to 15 significant digits every whole number is a double exactly, so only longer literals are looked at.
      if (literal.length > 15 && changesWholeNumber(literal)) inexact = literal;
    }
  }
  return { deeper: false, inexact, members };
};

/** Whether JSON text nests arrays and objects deeper than `max`, counted outside strings, without parsing it. */
export const nestsDeeperThan = (text: string, max: number = MAX_JSON_DEPTH): boolean => scanJsonText(text, max, false).deeper;
