import { ApiError, ensureOk, getJson, request } from './api.js';
import { h, replace } from './dom.js';

/** Every format GET /sessions/:id/export offers (packages/retention FORMATS). */
export const EXPORT_FORMATS = ['markdown', 'html', 'jsonl', 'qmd'];

const fileNameOf = (response, fallback) => {
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename="([^"]+)"/.exec(disposition);
  return match ? decodeURIComponent(match[1]) : fallback;
};

/** Downloads an export through fetch (so the token goes along) and saves it under the server's file name. */
const download = async (id, format, status) => {
  try {
    const response = await ensureOk(await request(`/sessions/${encodeURIComponent(id)}/export?format=${format}`));
    const url = URL.createObjectURL(await response.blob());
    const link = h('a', { href: url, download: fileNameOf(response, `${id}.${format}`), hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    replace(status, `Exported as ${format} (digest ${response.headers.get('x-export-digest') ?? 'unknown'}).`);
  } catch (error) {
    replace(status, `The export failed: ${error.message}`);
  }
};

/** Words for a refused deletion. */
const refusal = (error) => {
  if (!(error instanceof ApiError)) return `The deletion failed: ${error.message}`;
  if (error.status === 409) return `Not deleted: a turn is writing to this conversation right now (it holds a live lease). Nothing was tombstoned; try again once the turn has ended. (${error.message})`;
  if (error.status === 412) return 'Not deleted: the conversation changed since it was shown (a new message, rewrite or segment). Nothing was tombstoned; review it again.';
  if (error.status === 410) return 'It was deleted already.';
  return `Not deleted: ${error.message}`;
};

/** The review: exactly the segments, revisions and messages a deletion fenced by this ETag tombstones. */
const review = (view, etag, onConfirm, onCancel) => {
  const total = view.segments.reduce((sum, segment) => sum + segment.messages, 0);
  const confirm = h('button', { type: 'button', class: 'danger' }, `Delete these ${view.segments.length} segment(s) for good`);
  const cancel = h('button', { type: 'button' }, 'Cancel');
  confirm.addEventListener('click', () => onConfirm(etag));
  cancel.addEventListener('click', onCancel);
  return h(
    'section',
    { class: 'review', 'aria-label': 'Deletion review' },
    h('h2', {}, 'Delete this conversation?'),
    h('p', {}, `Tombstones ${view.segments.length} segment stream(s) holding ${total} message(s), each only at the revision below. If anything was written since, nothing is deleted.`),
    h(
      'table',
      { class: 'segments' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Segment'), h('th', { scope: 'col' }, 'Revision'), h('th', { scope: 'col' }, 'Messages'))),
      h('tbody', {}, view.segments.map((segment) => h('tr', {}, h('td', {}, h('code', {}, segment.sessionId)), h('td', { class: 'number' }, String(segment.revision)), h('td', { class: 'number' }, String(segment.messages))))),
    ),
    h('p', { class: 'meta' }, 'If-Match: ', h('code', {}, etag)),
    h('p', {}, confirm, ' ', cancel),
  );
};

/** Export buttons (every format) and the verified delete, for the conversation `id`; `onDeleted` once it is gone. */
export const actionsView = (id, onDeleted) => {
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const panel = h('div', { class: 'panel' });
  const exports = EXPORT_FORMATS.map((format) => {
    const button = h('button', { type: 'button', 'data-format': format }, `Export ${format}`);
    button.addEventListener('click', () => download(id, format, status));
    return button;
  });
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete…');
  const send = async (etag) => {
    try {
      const response = await ensureOk(await request(`/sessions/${encodeURIComponent(id)}`, { method: 'DELETE', headers: { 'if-match': etag } }));
      const result = await response.json();
      replace(panel);
      replace(status, `Deleted: ${result.deleted.length} stream(s) tombstoned (${result.deleted.join(', ')}).`);
      status.classList.add('done');
      for (const button of buttons.querySelectorAll('button')) button.disabled = true;
      onDeleted();
    } catch (error) {
      replace(panel);
      replace(status, refusal(error));
      status.classList.add('error');
    }
  };
  remove.addEventListener('click', async () => {
    status.classList.remove('error', 'done');
    replace(status);
    try {
      const { body, etag } = await getJson(`/sessions/${encodeURIComponent(id)}?view=display`);
      replace(panel, review(body, etag, send, () => replace(panel)));
      panel.querySelector('button')?.focus();
    } catch (error) {
      replace(status, `Could not read what would be deleted: ${error.message}`);
    }
  });
  const buttons = h('div', { class: 'buttons' }, exports, remove);
  return h('div', { class: 'actions' }, buttons, panel, status);
};
