/** A high surrogate not followed by a low one, or a low one not preceded by a high one (ill-formed UTF-16). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** String.prototype.isWellFormed (ES2024, native in every Node >= 20; the ES2023 lib does not declare it). */
const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

export const hasLoneSurrogate = nativeWellFormed
  ? (text: string): boolean => !nativeWellFormed.call(text)
  : (text: string): boolean => LONE_SURROGATE.test(text);

/**
 * A key JSON allows but JavaScript turns into the object's prototype wherever an object is copied by
 * assignment (zod's records, a reviver, most JSON code): a reader would drop it and its value.
 */
const PROTO_KEY = '__proto__';

/** Where the path of a number JSON read as ±Infinity (`1e400`), or NaN given by a library caller, ends. */
const NOT_FINITE = ' (a number)';

/** Whether any string of a JSON value (key or value) holds a lone surrogate, a key is __proto__, or a number is not finite; no paths built. */
const anyIllFormed = (item: unknown): boolean => {
  if (typeof item === 'string') return hasLoneSurrogate(item);
  if (typeof item === 'number') return !Number.isFinite(item);
  if (item === null || typeof item !== 'object') return false;
  if (Array.isArray(item)) {
    for (const inner of item) if (anyIllFormed(inner)) return true;
    return false;
  }
  for (const key in item) {
    if (!Object.prototype.hasOwnProperty.call(item, key)) continue;
    if (key === PROTO_KEY || hasLoneSurrogate(key) || anyIllFormed((item as Record<string, unknown>)[key])) return true;
  }
  return false;
};

const keyPath = (path: string, key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/**
 * Where a JSON value first holds a string (a key or a value) that is not well-formed UTF-16, a
 * key named __proto__ (the path then ends in `.__proto__`), or a number that is not finite (JSON
 * reads `1e400` as Infinity, which no store can keep; the path then ends in ` (a number)`, and every
 * surface said "Not a JSON number: Infinity" without saying where: outside test, session 23): its path from `root` (e.g.
 * `data.parts[1].text`), or null when there is none. Stores keep
 * UTF-8, where a lone surrogate becomes U+FFFD: what was acknowledged (and hashed) would not be what
 * is stored, so such a value is refused wherever it enters, never repaired.
 */
export const illFormedPath = (value: unknown, root: string): string | null => {
  if (!anyIllFormed(value)) return null;
  const walk = (item: unknown, path: string): string | null => {
    if (typeof item === 'string') return hasLoneSurrogate(item) ? path : null;
    if (typeof item === 'number') return Number.isFinite(item) ? null : `${path}${NOT_FINITE}`;
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index += 1) {
        const found = walk(item[index], `${path}[${index}]`);
        if (found !== null) return found;
      }
      return null;
    }
    if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (key === PROTO_KEY) return keyPath(path, key);
        if (hasLoneSurrogate(key)) return `${path} (a key)`;
        const found = walk(inner, keyPath(path, key));
        if (found !== null) return found;
      }
    }
    return null;
  };
  return walk(value, root);
};

/** The one wording of the refusal of what `illFormedPath` found at `path`, so every surface says the same thing. */
export const illFormedMessage = (where: string, path = ''): string =>
  path.endsWith(`.${PROTO_KEY}`)
    ? `Refused: ${where} holds a key named "${PROTO_KEY}", which JavaScript readers drop; nothing was stored`
    : path.endsWith(NOT_FINITE)
      ? `Refused: ${where} holds a number too large for JSON to read as one (it reads as Infinity); nothing was stored`
      : `Refused: ${where} holds a string that is not well-formed UTF-16 (a lone surrogate); nothing was stored`;
