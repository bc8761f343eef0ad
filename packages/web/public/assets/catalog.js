import { ensureOk, request } from './api.js';
import { breakable, h, isolated, replace, sessionHref, shortId, shownTitle, time } from './dom.js';

/**
 * The list answer as one shape: the paged catalog `{sessions, nextCursor}`, or the plain array of rows
 * GET /sessions answered before the catalog (then it is one page with no next).
 */
export const asCatalogPage = (body) => (Array.isArray(body) ? { sessions: body, nextCursor: null } : { sessions: body.sessions, nextCursor: body.nextCursor ?? null });

/** The address of the list after walking these cursors (one `c` per page, the last is the current one). */
const pageHref = (cursors) => {
  const search = new URLSearchParams();
  for (const cursor of cursors) search.append('c', cursor);
  const text = search.toString();
  return text ? `/?${text}` : '/';
};

const row = (session) => {
  const named = shownTitle(session.title);
  const title = named ?? `untitled ${shortId(session.rootId)}`;
  return h(
    'tr',
    { class: session.live ? 'live' : undefined },
    h('td', {}, h('a', { href: sessionHref(session.rootId), 'data-nav': true, class: named ? undefined : 'untitled', title: session.rootId }, isolated(breakable(title)))),
    h('td', {}, session.source ? isolated(session.source) : '–'),
    h('td', {}, session.model ? isolated(session.model) : '–'),
    h('td', { class: 'number' }, String(session.messages)),
    h('td', {}, time(session.lastActivity)),
    h('td', {}, session.live ? h('span', { class: 'badge live' }, 'live') : session.ended ? h('span', { class: 'badge' }, 'ended') : ''),
  );
};

/** `<sl-catalog>`: one page of conversations, newest activity first, with previous and next. */
class Catalog extends HTMLElement {
  cursors = [];

  async connectedCallback() {
    replace(this, h('p', { class: 'status' }, 'Loading conversations…'));
    try {
      const current = this.cursors.at(-1);
      const query = current === undefined ? '' : `?cursor=${encodeURIComponent(current)}`;
      const page = asCatalogPage(await (await ensureOk(await request(`/sessions${query}`))).json());
      this.render(page);
    } catch (error) {
      replace(this, h('p', { class: 'error', role: 'alert' }, `Could not list the conversations: ${error.message}`));
    }
  }

  render({ sessions, nextCursor }) {
    const table = h(
      'table',
      { class: 'catalog' },
      h('thead', {}, h('tr', {}, ['Title', 'Source', 'Model', 'Messages', 'Last activity', ''].map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, sessions.map(row)),
    );
    const nav = h(
      'nav',
      { class: 'pager', 'aria-label': 'Pages' },
      this.cursors.length > 0 ? h('a', { href: pageHref(this.cursors.slice(0, -1)), rel: 'prev' }, '← Previous') : '',
      nextCursor ? h('a', { href: pageHref([...this.cursors, nextCursor]), rel: 'next' }, 'Next →') : '',
    );
    replace(this, h('h1', {}, 'Conversations'), sessions.length === 0 ? h('p', { class: 'status' }, 'No conversations yet.') : table, nav);
  }
}

customElements.define('sl-catalog', Catalog);
