// Every element is built here, by DOM APIs: text only ever goes in through text nodes, never as markup.

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
