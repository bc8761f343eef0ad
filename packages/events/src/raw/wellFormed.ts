import { hasLoneSurrogate, invalidInput } from '@session-ledger/core';

/** C0 and C1 control characters (tab and newline included: none belongs in a name). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
export { hasLoneSurrogate };

/** A name (stream, type, event id): refused with one line when it holds a control character or a lone surrogate. */
export const checkName = (field: string, text: string): void => {
  if (CONTROL.test(text)) throw invalidInput(`Refused: the ${field} ${JSON.stringify(text)} contains a control character`, field);
  if (hasLoneSurrogate(text)) throw invalidInput(`Refused: the ${field} ${JSON.stringify(text)} is not well-formed UTF-16 (a lone surrogate)`, field);
};

/**
 * JSON data or metadata: no string (key or value) may hold a lone surrogate. Stores keep UTF-8,
 * where a lone surrogate becomes U+FFFD: what was acknowledged would not be what is stored.
 */
export const checkWellFormedJson = (field: string, value: unknown): void => {
  const bad = (text: string) => {
    if (hasLoneSurrogate(text)) throw invalidInput(`Refused: the ${field} holds a string that is not well-formed UTF-16 (a lone surrogate)`, field);
  };
  const walk = (item: unknown): void => {
    if (typeof item === 'string') bad(item);
    else if (Array.isArray(item)) item.forEach(walk);
    else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        bad(key);
        walk(inner);
      }
    }
  };
  walk(value);
};
