/**
 * Every field a Markdown or Quarto export interpolates goes through one of these, so that pandoc or
 * Quarto renders it as the text it is: no field becomes an HTML element (`<img onerror>`), an entity,
 * a link, an image, a footnote, a span or attribute, math, a citation, a shortcode, emphasis or a
 * new block.
 */

/** Characters that open Markdown, pandoc or Quarto syntax inside a line; every one is backslash-escapable. */
const INLINE_SYNTAX = /[\\`*_{}[\]<>#!|$@~^&=]/g;

/** A field inside a line of text: syntax characters backslash-escaped, line breaks made spaces (no new block). */
export const inlineText = (text: string): string => text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ').replace(INLINE_SYNTAX, '\\$&');

/** A field as inline code (ids, stream names, types): literal whatever it holds; a fence longer than any backtick run inside. */
export const codeSpan = (text: string): string => {
  const flat = text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat.trim() === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
};

/**
 * Quarto expands shortcodes (`{{< include FILE >}}`, `{{< env NAME >}}`) anywhere, code blocks
 * included; tripled braces are its escape, shown as the text written.
 */
export const escapeShortcodes = (text: string): string => text.replace(/\{\{</g, '{{{<').replace(/>\}\}/g, '>}}}');
