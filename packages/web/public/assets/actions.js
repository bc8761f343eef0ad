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

/** Which conversation a reviewed stream belongs to, in words. */
const conversationOf = (stream) => (stream.link === 'delegation' ? `delegated child (depth ${stream.depth}), root ` : 'this conversation, root ');

/** The review (GET /sessions/:id/deletion): exactly the streams and revisions a deletion fenced by its ETag tombstones, delegated children included. */
const review = (plan, etag, onConfirm, onCancel) => {
  const children = new Set(plan.streams.filter((stream) => stream.link === 'delegation').map((stream) => stream.rootId)).size;
  const confirm = h('button', { type: 'button', class: 'danger' }, `Delete these ${plan.streams.length} segment(s) for good`);
  const cancel = h('button', { type: 'button' }, 'Cancel');
  confirm.addEventListener('click', () => onConfirm(etag));
  cancel.addEventListener('click', onCancel);
  return h(
    'section',
    { class: 'review', 'aria-label': 'Deletion review' },
    h('h2', {}, 'Delete this conversation?'),
    (plan.unfinished ?? []).length > 0
      ? h(
          'p',
          { class: 'unfinished' },
          `A deletion of this conversation started ${plan.unfinished[0].at} stopped part way (its process was killed). Deleting finishes it: it tombstones the streams it named, listed below; some may be gone already.`,
        )
      : null,
    h(
      'p',
      {},
      `Tombstones ${plan.streams.length} segment stream(s)${children > 0 ? `, of them ${children} delegated conversation(s) started from this one` : ''}, each only at the revision below. If anything was written to any of them since, nothing is deleted.`,
    ),
    h(
      'table',
      { class: 'segments' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Segment'), h('th', { scope: 'col' }, 'Conversation'), h('th', { scope: 'col' }, 'Revision'))),
      h(
        'tbody',
        {},
        plan.streams.map((stream) =>
          h('tr', { 'data-link': stream.link ?? 'self' }, h('td', {}, h('code', {}, stream.sessionId)), h('td', {}, conversationOf(stream), h('code', {}, stream.rootId)), h('td', { class: 'number' }, String(stream.revision))),
        ),
      ),
    ),
    h('p', { class: 'meta' }, 'If-Match: ', h('code', {}, etag)),
    h('p', {}, confirm, ' ', cancel),
  );
};

/**
 * The segments of the conversation itself (not its delegated children, which the page does not show)
 * in a deletion review whose revision is not the one the page shows (`shown`: "SEGMENT@REVISION ...").
 */
const unseen = (plan, shown) => {
  const showing = new Set(shown.split(' '));
  return plan.streams.filter((stream) => stream.link !== 'delegation' && !showing.has(`${stream.sessionId}@${stream.revision}`));
};

/**
 * Export buttons (every format) and the verified delete, for the conversation `id`; `onDeleted` once it
 * is gone. `page.shown()` is what the page shows; a review of anything else is not offered: the page
 * reloads (`page.reload()`) and says so. The review's ETag fenced the delete on what the server held when
 * Delete was clicked, so a page whose feed had stopped delivering deleted messages it never showed
 * (outside test, session 35, helper-96 F2).
 */
export const actionsView = (id, onDeleted, page = { shown: () => null, reload: async () => undefined }) => {
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
      const { body, etag } = await getJson(`/sessions/${encodeURIComponent(id)}/deletion`);
      const shown = page.shown();
      // A deletion stopped part way is finished as it was recorded, whatever is shown (the review says so).
      const changed = shown === null || (body.unfinished?.length ?? 0) > 0 ? [] : unseen(body, shown);
      if (changed.length > 0) {
        await page.reload().catch(() => undefined);
        replace(status, `Not offered: the conversation changed since this page showed it (${changed.map((stream) => stream.sessionId).join(', ')}). It was reloaded: read it, then delete again.`);
        status.classList.add('error');
        return;
      }
      replace(panel, review(body, etag, send, () => replace(panel)));
      panel.querySelector('button')?.focus();
    } catch (error) {
      replace(status, `Could not read what would be deleted: ${error.message}`);
    }
  });
  const buttons = h('div', { class: 'buttons' }, exports, remove);
  return h('div', { class: 'actions' }, buttons, panel, status);
};
