import { isPlainObject, sha256Hex } from './canonical.js';
import type { JsonObject, JsonValue } from './json.js';
import { isPlainString } from './log/plainString.js';

/** What sealing the usual event gives: its chain hash and the two texts its store row holds. */
export interface UsualSeal {
  hash: string;
  /** JSON.stringify(data): the row's data text, in the writer's key order. */
  dataText: string;
  /** JSON.stringify of the sealed metadata `{ prevHash, ...the writer's, hash }`: the row's metadata text. */
  metadataText: string;
}

/** Most members a flat data object may have here (more: the general path). */
const MAX_MEMBERS = 16;
/** The members read, as key and `"key":value` text (reused: sealing is synchronous). */
const keys: string[] = [];
const members: string[] = [];
const order: number[] = [];
/** flatTexts' two texts (module state, like the arrays above: no array allocated an event). */
let writtenText = '';
let canonicalText = '';

/**
 * isPlainString, answered by a loop over the code units for printable ASCII (ids, streams, types and
 * keys as writers make them: no regular expression and no isWellFormed call, which cost about as
 * much for the six strings of an event as serialising its 300 characters of data).
 */
const plain = (text: string): boolean => {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // Below U+0020, `"`, backslash, and anything past ASCII: isPlainString decides.
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return isPlainString(text);
  }
  return true;
};

/** A member value's text as JSON.stringify writes it; undefined to leave the member out; null for anything not a JSON primitive. */
const primitiveText = (item: unknown): string | undefined | null => {
  switch (typeof item) {
    case 'string':
      return JSON.stringify(item);
    case 'number':
      return Number.isFinite(item) ? JSON.stringify(item) : null;
    case 'boolean':
      return item ? 'true' : 'false';
    case 'undefined':
      return undefined;
    case 'object':
      return item === null ? 'null' : null;
    default:
      return null;
  }
};

/**
 * The data's two texts, JSON.stringify's (the writer's key order) and canonicalJson's (keys in
 * UTF-16 code-unit order), from one serialisation of each member, when `data` is a plain object of
 * JSON primitives (finite numbers) or undefined members (left out by both) with at most
 * MAX_MEMBERS members, keys JSON.stringify writes as they are and none integer-like (JavaScript
 * lists those first) or `__proto__`. For such an object JSON.stringify writes `{` + the members
 * `"key":value` in for-in order + `}`, and canonicalJson writes the same member texts in the keys'
 * order (canonical.ts: a flat object is one JSON.stringify with the sorted keys as its property
 * list), left in writtenText and canonicalText. False for anything else.
 */
const flatTexts = (data: JsonValue): boolean => {
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !isPlainObject(data)) return false;
  let count = 0;
  let sorted = true;
  let written = '{';
  for (const key in data) {
    if (!Object.hasOwn(data, key) || count === MAX_MEMBERS) return false;
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || key === '__proto__' || !plain(key)) return false;
    const text = primitiveText((data as Record<string, unknown>)[key]);
    if (text === null) return false;
    if (text === undefined) continue;
    const member = `"${key}":${text}`;
    if (count > 0 && keys[count - 1]! >= key) sorted = false;
    keys[count] = key;
    members[count] = member;
    written += count === 0 ? member : `,${member}`;
    count += 1;
  }
  written += '}';
  writtenText = written;
  if (sorted) {
    canonicalText = written;
    return true;
  }
  for (let index = 0; index < count; index += 1) {
    let at = index - 1;
    while (at >= 0 && keys[order[at]!]! > keys[index]!) {
      order[at + 1] = order[at]!;
      at -= 1;
    }
    order[at + 1] = index;
  }
  let canonical = '{';
  for (let at = 0; at < count; at += 1) canonical += at === 0 ? members[order[at]!]! : `,${members[order[at]!]!}`;
  canonicalText = `${canonical}}`;
  return true;
};

/**
 * The usual appended event, sealed with one serialisation of its data and metadata (benchmark rows
 * "sqlite single-event appends with the log commitment", issue 13, and "32 concurrent writers in
 * process", issue 14, whose session messages carry `schemaVersion`): flat data and flat metadata
 * (flatTexts; `metadata` is the chain's, `{ prevHash, ...the writer's }`, without `hash`), and an id,
 * type and stream JSON.stringify writes as they are. The chain text is written as one template with
 * chainText's bytes, `{"data":…,"id":…,"metadata":…,"revision":…,"stream":…,"type":…}`, and so is
 * the row's metadata text, JSON.stringify of the sealed metadata: its members in the ledger's order
 * and then `"hash"`, which the ledger adds last. Undefined for any other event: the caller seals it
 * the general way (sealText.ts), to the same hash.
 */
export const usualSeal = (stream: string, revision: bigint, id: string, type: string, data: JsonValue, metadata: JsonObject): UsualSeal | undefined => {
  if (typeof id !== 'string' || typeof type !== 'string' || !plain(id) || !plain(type) || !plain(stream)) return undefined;
  if (!flatTexts(data)) return undefined;
  const dataWritten = writtenText;
  const dataCanonical = canonicalText;
  if (!flatTexts(metadata) || writtenText.length < 3) return undefined;
  const hash = sha256Hex(`{"data":${dataCanonical},"id":"${id}","metadata":${canonicalText},"revision":"${revision}","stream":"${stream}","type":"${type}"}`);
  return { hash, dataText: dataWritten, metadataText: `${writtenText.slice(0, -1)},"hash":"${hash}"}` };
};
