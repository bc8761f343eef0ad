import { h } from './dom.js';

const KEY = 'session-ledger-token';

/** The Authorization header for the token kept in this tab's sessionStorage (none without one). */
export const tokenHeader = () => {
  const token = sessionStorage.getItem(KEY);
  return token ? { authorization: `Bearer ${token}` } : {};
};

let asking = null;

/**
 * The server wants a bearer token: one form asks for it (once, however many requests wait), keeps it in
 * sessionStorage (gone when the tab closes) and resolves; the requests then go again with it.
 */
export const askToken = () =>
  (asking ??= new Promise((resolve) => {
    const wrong = sessionStorage.getItem(KEY) !== null;
    const input = h('input', { type: 'password', name: 'token', autocomplete: 'off', required: true, 'aria-label': 'Token' });
    const form = h(
      'form',
      { class: 'token', 'aria-label': 'Token' },
      h('p', {}, wrong ? 'That token was refused. ' : '', 'This server needs its bearer token (session-ledger serve --token).'),
      h('label', {}, 'Token ', input),
      h('button', { type: 'submit' }, 'Use token'),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      sessionStorage.setItem(KEY, input.value);
      form.remove();
      asking = null;
      resolve();
    });
    document.body.prepend(form);
    input.focus();
  }));
