import { h, isolated, sessionHref, shortIdText, time } from './dom.js';

const summary = (text) => h('details', { class: 'summary', open: true }, h('summary', {}, 'Summary'), h('div', { class: 'content' }, text));

const CHILD_VERB = { delegation: 'Delegated to ', branch: 'Branched to ', reset: 'Reset: the thread goes on afresh in ' };

/** A marker of the display view, where it happened between messages. */
export const markerView = (marker) => {
  switch (marker.kind) {
    case 'compaction':
      return h('aside', { class: 'marker compaction', role: 'note' }, h('p', {}, `Compaction: ${marker.replaced} earlier message(s) summarized `, time(marker.at)), summary(marker.summary));
    case 'compression':
      return h(
        'aside',
        { class: 'marker compression', role: 'note' },
        h('p', {}, 'Compression boundary: continued in ', h('a', { href: sessionHref(marker.childId) }, shortIdText(marker.childId)), ' ', time(marker.at)),
        summary(marker.summary),
      );
    case 'child':
      return h('aside', { class: 'marker child', role: 'note' }, h('p', {}, CHILD_VERB[marker.link] ?? 'Linked to ', h('a', { href: sessionHref(marker.childId) }, shortIdText(marker.childId)), ' ', time(marker.at)));
    case 'ended':
      return h('aside', { class: 'marker ended', role: 'note' }, h('p', {}, 'Session ended', marker.reason ? [': ', isolated(marker.reason)] : '', ' ', time(marker.at)));
    case 'reopened':
      return h('aside', { class: 'marker reopened', role: 'note' }, h('p', {}, 'Session reopened: it takes messages again ', time(marker.at)));
    case 'withdrawn':
      return h(
        'aside',
        { class: 'marker withdrawn', role: 'note' },
        h('p', {}, 'Continuation withdrawn: ', h('a', { href: sessionHref(marker.childId) }, shortIdText(marker.childId)), ' stands on its own, and this session takes messages again ', time(marker.at)),
      );
    default:
      return '';
  }
};
