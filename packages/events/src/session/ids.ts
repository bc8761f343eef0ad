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

/** "." and "..": every URL parser resolves these path segments away (RFC 3986 §5.2.4). */
const DOT_SEGMENT = /^\.\.?$/;

/** Whether `text` is "." or "..", which no URL can name as a path segment. */
export const isDotSegment = (text: string): boolean => DOT_SEGMENT.test(text);

/** Whether `text` may name something new: a safe id that is not "." or ".." (checkNewId's rule, as a test). */
export const isNewId = (text: unknown): text is string => isSafeId(text) && !DOT_SEGMENT.test(text);

/**
 * checkSafeId for an id being given to something new (a session, compression child, message or
 * turn): "." and ".." are refused too, since no URL can name them (`/sessions/..` is `/`), so a
 * page or client could never open, export or delete what they name (outside test, session 16).
 * Ids stored before are still read as they are (checkSafeId).
 */
export const checkNewId = (text: unknown, field: string): string => {
  const id = checkSafeId(text, field);
  if (DOT_SEGMENT.test(id)) throw invalidInput(`${field} cannot be "${id}": URLs resolve "." and ".." away (RFC 3986), so no address could name it`, field);
  return id;
};
