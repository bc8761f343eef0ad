import { h, isolated, jsonText, time } from './dom.js';

const json = jsonText;

const toolName = (call) => call?.function?.name ?? call?.name ?? 'tool';

/** Tool calls folded: one <details> each, the name in the summary, the call as JSON inside. */
const toolCalls = (message) =>
  (message.toolCalls ?? []).map((call) =>
    h('details', { class: 'tool-call' }, h('summary', {}, 'Tool call: ', h('code', {}, isolated(toolName(call)))), h('pre', {}, json(call))),
  );

/** Earlier versions of a rewritten message, oldest first, on demand. */
const versions = (message) =>
  message.versions?.length
    ? h(
        'details',
        { class: 'versions' },
        h('summary', {}, `Earlier versions (${message.versions.length})`),
        h('ol', {}, message.versions.map((version) => h('li', {}, h('p', { class: 'meta' }, 'replaced ', time(version.replacedAt)), h('div', { class: 'content' }, version.content ?? '(no text)')))),
      )
    : '';

/** The text of a message; a tool result is folded under its tool's name. */
const body = (message) => {
  const text = message.content ?? '';
  if (message.role === 'tool') {
    return h('details', { class: 'tool-result' }, h('summary', {}, 'Tool result', message.toolName ? ': ' : '', message.toolName ? h('code', {}, isolated(message.toolName)) : ''), h('div', { class: 'content' }, text));
  }
  return text === '' ? '' : h('div', { class: 'content' }, text);
};

/** One message of the display or active view: role, time, marks (compacted, rewritten), text, tool calls, versions. */
export const messageView = (message) => {
  const classes = ['message', `role-${message.role}`, message.compacted ? 'compacted' : '', message.rewritten ? 'rewritten' : ''].filter(Boolean).join(' ');
  return h(
    'article',
    { id: `message-${message.id}`, class: classes, tabindex: 0, 'data-nav': true, 'aria-label': `${message.role} message` },
    h(
      'header',
      {},
      h('span', { class: `role ${message.role}` }, message.role),
      ' ',
      time(message.timestamp),
      message.compacted ? h('span', { class: 'badge compacted', title: message.compactedBy ? `compacted by ${message.compactedBy}` : 'compacted' }, 'compacted') : '',
      message.rewritten ? h('span', { class: 'badge rewritten' }, 'rewritten') : '',
    ),
    body(message),
    toolCalls(message),
    versions(message),
  );
};
