import { invalidInput } from '@session-ledger/core';

/** Session, message, turn and summary ids: letters, digits, `_`, `-`, `.`, `:`; 1 to 200 characters. */
export const SAFE_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

export const isSafeId = (text: unknown): text is string => typeof text === 'string' && SAFE_ID.test(text);

/** Throws invalid_input naming the field when `text` is not a safe id. */
export const checkSafeId = (text: unknown, field: string): string => {
  if (!isSafeId(text)) {
    throw invalidInput(`${field} must be 1-200 letters, digits, '_', '-', '.' or ':': ${JSON.stringify(text)}`, field);
  }
  return text;
};
