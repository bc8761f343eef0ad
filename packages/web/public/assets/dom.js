// Every element is built here, by DOM APIs: text only ever goes in through text nodes, never as markup.

/**
 * Stored JSON shown as text: bidi controls (and the line and paragraph separators) as \uXXXX escapes,
 * the way JSON may spell them, so a hostile value cannot redraw the rest of its line backwards and make
 * a key or value read as another (outside test, session 24). The text parses to the same value.
 */
export const jsonText = (value) =>
  JSON.stringify(value, null, 2).replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** An element with attributes (set by setAttribute) and children (strings become text nodes). */
export const h = (tag, attributes = {}, ...children) => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
};

/** Appends strings (as text), numbers, nodes and nested arrays; skips null, undefined and false. */
export const append = (parent, children) => {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
};

/** Replaces everything inside an element. */
export const replace = (parent, ...children) => {
  parent.replaceChildren();
  return append(parent, children);
};

/** A page address built from ids, each encoded: `/s/` + id, with an optional message anchor. */
export const sessionHref = (id, messageId) => `/s/${encodeURIComponent(id)}${messageId ? `#message-${encodeURIComponent(messageId)}` : ''}`;

/** A time for people: the local date and time, with the ISO text kept in a <time> element. */
export const time = (iso) => (iso ? h('time', { datetime: iso, title: iso }, new Date(iso).toLocaleString()) : '–');

/** A short form of a long id. */
export const shortId = (id) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/**
 * A title that shows something, else null (the page then says "untitled"): one of only spaces or
 * invisible characters (U+200B, U+202E, ...) made a link 0 px wide, which no mouse could open (outside
 * test, session 35, helper-96 F8).
 */
export const shownTitle = (title) => (typeof title === 'string' && /[^\p{White_Space}\p{Cc}\p{Cf}\p{Z}]/u.test(title) ? title : null);

/**
 * Ledger text shown inline next to other text, isolated in a <bdi>: a bidi control in it (U+202E, U+2066…)
 * ends at the element's edge, so it cannot reorder the words around it.
 */
export const isolated = (text) => h('bdi', {}, text);

/** An id shortened (shortId), isolated, with the whole id as its tooltip: ids sharing their first 8 characters read the same (outside test, session 35, helper-96 F9). */
export const shortIdText = (id) => h('bdi', { title: id }, shortId(id));

const SAFE_CUT = /[^\p{M}\u200C\u200D\uDC00-\uDFFF\uFE00-\uFE0F]/u;

/**
 * Long text with a <wbr> at least every `every` characters of a run without spaces. Chromium breaks one
 * unbroken word (overflow-wrap: anywhere) in time that grows with the square of its length: a 1 MB
 * title froze the page. The pieces keep the text as it is (a <wbr> holds none), never cut a surrogate
 * pair or before a combining mark, and are found in one pass.
 */
export const breakable = (text, every = 64) => {
  if (text.length <= every) return text;
  const parts = [];
  let from = 0;
  let run = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code <= 32 || code === 0x200b || code === 0x3000) {
      run = 0;
      continue;
    }
    run += 1;
    if (run > every && SAFE_CUT.test(text[at])) {
      parts.push(text.slice(from, at), h('wbr'));
      from = at;
      run = 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
};
