import { h, isolated, jsonText } from './dom.js';
import { markerView } from './markers.js';
import { messageView } from './message.js';

/** Display: root to tip, markers at their index, compacted messages shown and marked. */
const display = (view) => {
  const items = [];
  const markersAt = (index) => view.markers.filter((marker) => marker.index === index).map(markerView);
  view.messages.forEach((message, index) => items.push(markersAt(index), messageView(message)));
  items.push(markersAt(view.messages.length));
  return items;
};

/** Active: what the model sees next; a summary stands where the history it replaced was. */
const active = (view) =>
  view.messages.map((item) =>
    item.kind === 'summary'
      ? h('aside', { class: `marker ${item.source}`, role: 'note', id: `message-${item.id}` }, h('p', {}, 'Summary (', isolated(item.source), `) of ${item.replaced} message(s)`), h('div', { class: 'content' }, item.content))
      : messageView(item),
  );

/** Raw: every stored event as stored, its data and metadata as JSON. */
const raw = (view) =>
  h(
    'ol',
    { class: 'raw' },
    view.events.map((event) =>
      h(
        'li',
        { tabindex: 0, 'data-nav': true },
        h('p', {}, h('code', {}, isolated(event.type)), ' ', isolated(event.stream), ` @${event.revision} (position ${event.position})`),
        h('details', {}, h('summary', {}, 'data and metadata'), h('pre', {}, jsonText({ id: event.id, created: event.created, data: event.data, metadata: event.metadata }))),
      ),
    ),
  );

export const VIEWS = { display, active, raw };
