import { ensureOk, request } from './api.js';
import { h, isolated, replace, sessionHref, shortIdText } from './dom.js';

/**
 * A snippet with its matches in <mark>: `marks` are [start, end) UTF-16 offsets into the plain text.
 * Out-of-range or overlapping marks are clamped and skipped; the text goes in as text nodes only.
 */
export const markedSnippet = (snippet, marks) => {
  const parts = [];
  let at = 0;
  const sorted = [...(marks ?? [])].sort((a, b) => a[0] - b[0]);
  for (const [rawStart, rawEnd] of sorted) {
    const start = Math.max(at, Math.min(rawStart, snippet.length));
    const end = Math.min(Math.max(rawEnd, start), snippet.length);
    if (end <= start) continue;
    parts.push(snippet.slice(at, start), h('mark', {}, snippet.slice(start, end)));
    at = end;
  }
  parts.push(snippet.slice(at));
  return parts.filter((part) => part !== '');
};

const hit = (found) =>
  h(
    'li',
    { class: 'hit' },
    h('a', { href: sessionHref(found.rootId, found.messageId), 'data-nav': true }, h('span', { class: `role ${found.role}` }, found.role), ' ', h('span', { class: 'id' }, shortIdText(found.rootId))),
    h('p', { class: 'snippet' }, markedSnippet(found.snippet, found.marks)),
  );

/** `<sl-search q="…">`: ranked hits (best first) from GET /search, each linking to its message. */
class Search extends HTMLElement {
  async connectedCallback() {
    const q = this.getAttribute('q') ?? '';
    replace(this, h('p', { class: 'status' }, 'Searching…'));
    try {
      const body = await (await ensureOk(await request(`/search?q=${encodeURIComponent(q)}`))).json();
      replace(
        this,
        h('h1', {}, 'Search: ', h('q', {}, isolated(q))),
        body.hits.length === 0 ? h('p', { class: 'status' }, 'No messages match.') : h('ol', { class: 'hits' }, body.hits.map(hit)),
      );
    } catch (error) {
      replace(this, h('h1', {}, 'Search: ', h('q', {}, isolated(q))), h('p', { class: 'error', role: 'alert' }, `The search failed: ${error.message}`));
    }
  }
}

customElements.define('sl-search', Search);
