import './components.js';
import { h, replace } from './dom.js';
import { installKeys } from './keys.js';

/** One page, three views by address: `/` the catalog, `/?q=…` search hits, `/s/ID` a conversation. */
const main = document.getElementById('main');
const params = new URLSearchParams(location.search);
const session = /^\/s\/([^/]+)\/?$/.exec(location.pathname);

const view = () => {
  if (session) return h('sl-conversation', { 'session-id': decodeURIComponent(session[1]), view: params.get('view') ?? 'display' });
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
