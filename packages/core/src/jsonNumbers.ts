import { scanJsonText } from './jsonDepth.js';

/**
 * The first whole number in JSON text (an integer literal: digits, an optional minus, no fraction or
 * exponent) that JSON.parse cannot keep: it reads as a double that JSON writes back with other digits
 * (9007199254740993 reads as 9007199254740992, 18446744073709551615 as 18446744073709552000).
 * Undefined when there is none. Wherever JSON text enters (an HTTP body, a CLI option or file, an
 * imported export, a Hermes column) such a number is refused or the text kept as it is, never stored
 * changed. A number JSON.stringify wrote (an export) always reads back with its own digits.
 */
export const inexactInteger = (text: string): string | undefined => scanJsonText(text, Infinity).inexact;

/** The one-line reason an inexact whole number is refused. */
export const inexactIntegerMessage = (where: string, literal: string): string =>
  `${where} holds the number ${literal.length > 40 ? `${literal.slice(0, 40)}…` : literal}, which JSON keeps only as ${String(Number(literal))} (a double): send it as a string`;
