/**
 * The canonical JSON of the flat object a stored data text parses to, cut from the text itself
 * without JSON.parse, when the text is one whose every member is already written canonically
 * (the ledger stores data as JSON.stringify wrote it: the usual event's text is); undefined for any
 * other text, which the caller parses and rehashes the general way.
 *
 * The text is taken (FLAT, one regular expression, and isWellFormed) only when it is `{}` or
 * `{"k1":v1,...,"kn":vn}` with no white space where
 * - every key and string value is `"` + characters + `"`, the characters none that JSON.stringify
 *   escapes: no `"`, no backslash (so no escape at all), no control character below U+0020, no lone
 *   surrogate. JSON.parse reads such a string as those characters, and JSON.stringify writes them back
 *   as they are;
 * - every other value is `true`, `false`, `null` or an integer written as String writes it: `0`, or
 *   an optional `-` and 1 to 15 digits not starting with 0 (exact below 2^53, so String gives the same
 *   digits back; `-0`, a fraction, an exponent, a `+` or a leading zero is not this);
 * - no two keys are equal (JSON.parse would keep the last one only).
 * Such a text is valid JSON and parses to an object with exactly those members as own properties
 * (JSON.parse defines each, `__proto__` too), each member's text `"k":v` being what the canonical
 * encoder writes for it; canonicalJson of the object writes those member texts in the keys' UTF-16
 * code-unit order whatever their order in the object (integer-like keys, which JavaScript lists
 * first, included), and so does the reference rehash (rehash.ts, chain.ts). So the members' texts
 * sorted by key, joined by commas between braces, are the canonical text (the text itself when the
 * keys already grow).
 */
export const canonicalFlatText = (text: string): string | undefined => {
  if (!FLAT.test(text) || isWellFormed === undefined || !isWellFormed.call(text)) return undefined;
  // The text is FLAT's: every `"` opens or closes a key or a string value, every `,` outside them parts two members.
  const end = text.length - 1;
  if (end === 1) return text;
  let count = 0;
  let sorted = true;
  let at = 1;
  while (at < end) {
    const key = at + 1;
    const keyEnd = text.indexOf('"', key);
    if (count === MAX_MEMBERS) return undefined;
    if (count > 0 && sorted && !grows(text, keys[count - 1]!, keyEnds[count - 1]!, key, keyEnd)) sorted = false;
    const value = keyEnd + 2;
    let valueEnd = text.charCodeAt(value) === 34 ? text.indexOf('"', value + 1) + 1 : text.indexOf(',', value);
    if (valueEnd < 0) valueEnd = end;
    keys[count] = key;
    keyEnds[count] = keyEnd;
    ends[count] = valueEnd;
    count += 1;
    at = valueEnd + 1;
  }
  return sorted ? text : sortedMembers(text, count);
};

/** A member as canonicalFlatText takes it: a plain key, a plain string or a literal or an integer written as String writes it. */
const MEMBER = String.raw`"[^"\\\u0000-\u001f]*":(?:"[^"\\\u0000-\u001f]*"|true|false|null|0|-?[1-9][0-9]{0,14})`;
/** A whole text of such members, nothing else (no white space). */
const FLAT = new RegExp(String.raw`^\{(?:${MEMBER}(?:,${MEMBER})*)?\}$`);

/** String.prototype.isWellFormed (Node 20; ES2024, past this project's lib): no lone surrogate. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Members a text may have for canonicalFlatText (more: the general way). */
const MAX_MEMBERS = 64;
/** Per member: where its key's characters start and end, and where its value ends (reused: the scan is synchronous). */
const keys = new Int32Array(MAX_MEMBERS);
const keyEnds = new Int32Array(MAX_MEMBERS);
const ends = new Int32Array(MAX_MEMBERS);
const order = new Int32Array(MAX_MEMBERS);

/** The text of the `count` members read, in their keys' order (undefined when two keys are equal). */
const sortedMembers = (text: string, count: number): string | undefined => {
  for (let index = 0; index < count; index += 1) {
    const key = keys[index]!;
    const keyEnd = keyEnds[index]!;
    let at = index - 1;
    while (at >= 0 && grows(text, key, keyEnd, keys[order[at]!]!, keyEnds[order[at]!]!)) {
      order[at + 1] = order[at]!;
      at -= 1;
    }
    order[at + 1] = index;
  }
  let out = '{';
  for (let at = 0; at < count; at += 1) {
    const member = order[at]!;
    // Sorted, so an equal key would stand right before: a duplicate.
    if (at > 0 && !grows(text, keys[order[at - 1]!]!, keyEnds[order[at - 1]!]!, keys[member]!, keyEnds[member]!)) return undefined;
    out += `${at === 0 ? '' : ','}${text.slice(keys[member]! - 1, ends[member]!)}`;
  }
  return `${out}}`;
};

/** Whether text[b, bEnd) comes strictly after text[a, aEnd) in UTF-16 code-unit order (as `<` compares strings). */
const grows = (text: string, a: number, aEnd: number, b: number, bEnd: number): boolean => {
  const aLength = aEnd - a;
  const bLength = bEnd - b;
  const common = aLength < bLength ? aLength : bLength;
  for (let at = 0; at < common; at += 1) {
    const left = text.charCodeAt(a + at);
    const right = text.charCodeAt(b + at);
    if (left !== right) return left < right;
  }
  return aLength < bLength;
};
