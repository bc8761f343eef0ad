/**
 * Code points a terminal acts on instead of showing, or that make text read differently from what it
 * is: C0 controls (ESC starts `ESC]52` clipboard writes and `ESC]0;` title changes, CR overwrites a
 * line), DEL, C1 controls (U+009B is a one-byte CSI), the bidi embeddings, overrides, isolates and
 * marks (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), the line and paragraph separators,
 * the deprecated format controls U+206A-U+206F, the byte order mark, the interlinear annotation
 * controls, the invisible tag characters U+E0000-U+E007F, and lone surrogates.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|\p{Cs}/gu;
const UNSAFE_WITH_LAYOUT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|\p{Cs}/gu;

const hex = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/** `\uXXXX` per UTF-16 unit (a surrogate pair for a tag character): the JSON escape, so JSON stays JSON. */
const escapeOne = (char: string): string => (char.length === 1 ? hex(char.charCodeAt(0)) : hex(char.charCodeAt(0)) + hex(char.charCodeAt(1)));

/**
 * The one escape every byte the CLI prints goes through (plain text, JSON, help, errors).
 * `layout`: newline and tab are the output's own layout and stay; `field`: a value printed inside one
 * line (a column, a heading) loses its newlines and tabs to `\u000a` and `\u0009` too, so it can never
 * forge a row or a column. In JSON text the unsafe code points can only sit inside strings, so the
 * `\uXXXX` escape keeps it valid JSON that parses back to the same value.
 */
export const terminalSafe = (text: string, mode: 'layout' | 'field' = 'layout'): string =>
  text.replace(mode === 'layout' ? UNSAFE : UNSAFE_WITH_LAYOUT, escapeOne);
