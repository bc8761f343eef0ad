import './components.js';
import { h, replace } from './dom.js';
import { installKeys } from './keys.js';

/** One page, three views by address: `/` the catalog, `/?q=…` search hits, `/s/ID` a conversation. */
const main = document.getElementById('main');
const params = new URLSearchParams(location.search);
const session = /^\/s\/([^/]+)\/?$/.exec(location.pathname);

/** The id in `/s/ID`, or null when it is not valid percent-encoding (`/s/%E0`). */
const sessionId = (encoded) => {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
};

const view = () => {
  if (session) {
    const id = sessionId(session[1]);
    if (id === null) return h('p', { class: 'error', role: 'alert' }, 'This address names no conversation: the id after /s/ is not valid percent-encoding.');
    return h('sl-conversation', { 'session-id': id, view: params.get('view') ?? 'display' });
  }
  const q = params.get('q');
  if (q) {
    document.querySelector('input[name=q]').value = q;
    return h('sl-search', { q });
  }
  const catalog = h('sl-catalog');
  catalog.cursors = params.getAll('c');
  return catalog;
};

replace(main, view());
installKeys();
