/** An entity-tag in a list: optionally weak (`W/`), then its opaque quoted part. */
const ENTITY_TAG = /(?:W\/)?("[^"]*")/g;

/**
 * Whether If-None-Match names the current ETag (RFC 9110 §13.1.2): `*`, or a list holding it under
 * the weak comparison (`W/"x"` matches `"x"`). True means the client's copy is current: 304.
 */
export const noneMatchHolds = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const [, tag] of header.matchAll(ENTITY_TAG)) if (tag === opaque) return true;
  return false;
};
