/** No character JSON.stringify escapes: `"`, backslash, a control character below U+0020 (a lone surrogate: isWellFormed). */
const PLAIN = /^[^"\\\u0000-\u001f]*$/;

/** String.prototype.isWellFormed (Node 20; ES2024, past this project's lib): no lone surrogate. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * Whether JSON.stringify writes `text` as it is between two quotes: no `"`, no backslash, no control
 * character below U+0020 and no lone surrogate, the only characters it escapes. Then a template can
 * write `"${text}"` where JSON.stringify(text) would be called (80 ns a call; a range scan wrote five
 * per event: the chain text's id, stream and type, the leaf input's created and stream).
 */
export const isPlainString = (text: string): boolean => PLAIN.test(text) && isWellFormed !== undefined && isWellFormed.call(text);
