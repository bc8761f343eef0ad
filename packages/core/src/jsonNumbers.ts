/**
 * The first whole number in JSON text (an integer literal: digits, an optional minus, no fraction or
 * exponent) that JSON.parse cannot keep: it reads as a double that JSON writes back with other digits
 * (9007199254740993 reads as 9007199254740992, 18446744073709551615 as 18446744073709552000).
 * Undefined when there is none. Wherever JSON text enters (an HTTP body, a CLI option or file, an
 * imported export, a Hermes column) such a number is refused or the text kept as it is, never stored
 * changed. A number JSON.stringify wrote (an export) always reads back with its own digits.
 */
export const inexactInteger = (text: string): string | undefined => {
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92) i += 1;
      else if (code === 34) inString = false;
      continue;
    }
    if (code === 34) {
      inString = true;
      continue;
    }
    if (code !== 45 && (code < 48 || code > 57)) continue;
    let end = i + 1;
    while (end < text.length && isNumberChar(text.charCodeAt(end))) end += 1;
    const literal = text.slice(i, end);
    i = end - 1;
    // Up to 15 digits every integer is a double exactly; longer, only a literal without a fraction or exponent is checked.
    if (literal.length <= 15 || !/^-?\d+$/.test(literal)) continue;
    if (String(Number(literal)) !== literal) return literal;
  }
  return undefined;
};

/** Digits, sign, point and exponent: the characters of a JSON number after its first. */
const isNumberChar = (code: number): boolean => (code >= 48 && code <= 57) || code === 46 || code === 101 || code === 69 || code === 43 || code === 45;

/** The one-line reason an inexact whole number is refused. */
export const inexactIntegerMessage = (where: string, literal: string): string =>
  `${where} holds the number ${literal.length > 40 ? `${literal.slice(0, 40)}…` : literal}, which JSON keeps only as ${String(Number(literal))} (a double): send it as a string`;
