import { actionsView } from './actions.js';
import { getJson } from './api.js';
import { breakable, h, isolated, replace, sessionHref, shortId, shortIdText, shownTitle, time } from './dom.js';
import { followSession } from './feed.js';
import { VIEWS } from './views.js';

const PARENT_LINK = { delegation: 'Delegated from ', branch: 'Branched from ', reset: 'Reset from (shown above) ' };

const TABS = [
  ['display', 'Conversation'],
  ['active', 'Active (what the model sees)'],
  ['raw', 'Raw events'],
];

const liveTurn = (view) => (view.turns ?? []).some((turn) => turn.ended === null && Date.parse(turn.leaseExpiresAt) > Date.now());

const heading = (view, name) => {
  const root = view.segments[0] ?? {};
  const tip = view.segments.at(-1) ?? {};
  return h(
    'header',
    { class: 'conversation-head' },
    h('h1', {}, isolated(breakable(shownTitle(root.title) ?? shownTitle(tip.title) ?? `untitled ${shortId(view.rootId)}`)), liveTurn(view) ? h('span', { class: 'badge live' }, 'live') : ''),
    h(
      'p',
      { class: 'meta' },
      'root ', h('code', {}, view.rootId), ' · tip ', h('code', {}, view.tipId),
      ` · ${view.segments.length} segment(s)`,
      root.source ? [' · ', isolated(root.source)] : '',
      tip.model ?? root.model ? [' · ', isolated(tip.model ?? root.model)] : '',
      view.lastActivity ? [' · last activity ', time(view.lastActivity)] : '',
    ),
    root.parentId && root.link ? h('p', { class: 'meta parent' }, PARENT_LINK[root.link] ?? 'Linked from ', h('a', { href: sessionHref(root.parentId) }, shortIdText(root.parentId))) : '',
    h(
      'nav',
      { class: 'tabs', 'aria-label': 'Views' },
      TABS.map(([tab, label]) => h('a', { href: `${sessionHref(view.rootId)}?view=${tab}`, 'aria-current': tab === name ? 'page' : undefined }, label)),
    ),
  );
};

/** `<sl-conversation session-id="ANY ID" view="display|active|raw">`: the conversation, kept current by its SSE feed. */
class Conversation extends HTMLElement {
  #abort = new AbortController();
  #pending = null;

  async connectedCallback() {
    const id = this.getAttribute('session-id');
    // Own keys only: ?view=constructor (or __proto__, toString) named an Object method and showed an error page (outside test, session 35, helper-96 F7).
    const name = Object.hasOwn(VIEWS, this.getAttribute('view') ?? '') ? this.getAttribute('view') : 'display';
    replace(this, h('p', { class: 'status' }, 'Loading the conversation…'));
    const body = h('div', { class: 'messages' });
    const head = h('div');
    const load = async (selector = id) => {
      const { body: view } = await getJson(`/sessions/${encodeURIComponent(selector)}?view=${name}`);
      const revision = view.segments.map((segment) => `${segment.sessionId}@${segment.revision}`).join(' ');
      // Nothing written since it was shown: nothing to draw again (a reload of a long conversation takes seconds).
      if (revision === this.dataset.revision) return view;
      replace(head, heading(view, name));
      replace(body, VIEWS[name](view));
      this.dataset.revision = revision;
      return view;
    };
    let rootId;
    try {
      rootId = (await load()).rootId;
    } catch (error) {
      replace(this, h('p', { class: 'error', role: 'alert' }, 'Could not open ', isolated(id), ': ', isolated(error.message)));
      return;
    }
    // From here on the conversation is named by its root: the same whole conversation whatever id opened it.
    // Whoever deleted it (this page's button, or another client whose deletion the feed reports): the same words.
    const deleted = () => {
      if (this.#abort.signal.aborted) return;
      this.#abort.abort();
      for (const button of this.querySelectorAll('.actions button')) button.disabled = true;
      replace(body, h('p', { class: 'status', role: 'status' }, 'This conversation was deleted.'));
    };
    replace(this, head, actionsView(rootId, deleted, { shown: () => this.dataset.revision ?? '', reload: () => load(rootId) }), body);
    this.#scrollToHash();
    // Reloads by the root too: the id in the address may be a prefix or a title, which a session started
    // since (an exact id wins) could take over, showing another conversation beside this one's buttons
    // (outside test, session 24).
    followSession(rootId, () => this.#reloadSoon(() => load(rootId)), this.#abort.signal, deleted);
  }

  disconnectedCallback() {
    this.#abort.abort();
  }

  /** Several events of one write come together: one reload for them. */
  #reloadSoon(load) {
    if (this.#pending) return;
    this.#pending = setTimeout(async () => {
      this.#pending = null;
      try {
        await load();
      } catch {
        // deleted or gone: the page keeps what it showed
      }
    }, 100);
  }

  /** The message the fragment names, if any; a fragment that is not valid percent-encoding names none. */
  #scrollToHash() {
    if (!location.hash) return;
    let name;
    try {
      name = decodeURIComponent(location.hash.slice(1));
    } catch {
      return;
    }
    const target = document.getElementById(name);
    if (!target) return;
    target.classList.add('target');
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
  }
}

customElements.define('sl-conversation', Conversation);
