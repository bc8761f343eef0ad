import type { Manifest } from '../manifest.js';
import type { DisplayContent, ExportContent, ExportedConversation, ExportedMessage, RawContent } from '../view/content.js';
import { markerHeadline, markerSummary, messageDetails, messageTags } from './text.js';
import { conversationTitle, itemsOf } from './walk.js';

export const MANIFEST_SCRIPT_ID = 'session-ledger-manifest';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Every piece of content goes through this: a `<script>` in a message renders as text. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** JSON inside a script element: `<`, `>`, `&` and the line separators escaped, so no content can close the element. */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
pre{white-space:pre-wrap;word-break:break-word;background:#f5f5f7;padding:.6rem;border-radius:4px;margin:.3rem 0}
.message{border-left:4px solid #8e8e93;padding:.2rem .8rem;margin:1rem 0}.role-user{border-color:#0a84ff}.role-assistant{border-color:#30d158}
.role-tool{border-color:#ff9f0a}.role-system{border-color:#bf5af2}.compacted{opacity:.75;border-style:dashed}
.tags{color:#6e6e73;font-size:.85em}.marker{background:#fff8e1;border:1px solid #f0d98c;padding:.4rem .8rem;margin:1rem 0}
table{border-collapse:collapse}td,th{border:1px solid #d2d2d7;padding:.2rem .5rem;text-align:left;font-size:.85em}`;

const pre = (text: string | null) => (text === null ? '<p class="tags">(no text content)</p>' : `<pre>${escapeHtml(text)}</pre>`);

const messageBlock = (message: ExportedMessage, number: number): string => {
  const tags = messageTags(message);
  const classes = ['message', `role-${escapeHtml(message.role)}`, ...(message.compacted ? ['compacted'] : []), ...(message.rewritten ? ['rewritten'] : [])];
  const out = [
    `<article class="${classes.join(' ')}" data-id="${escapeHtml(message.id)}">`,
    `<header><strong>${number} · ${escapeHtml(message.role)}</strong> <code>${escapeHtml(message.id)}</code> ${escapeHtml(message.timestamp)}` +
      `${tags.length > 0 ? ` <span class="tags">${escapeHtml(tags.join('; '))}</span>` : ''}</header>`,
    pre(message.content),
  ];
  if (message.reasoning !== undefined) out.push(`<details><summary>Reasoning</summary>${pre(message.reasoning)}</details>`);
  if ((message.toolCalls?.length ?? 0) > 0) out.push(`<div>Tool calls:</div>${pre(JSON.stringify(message.toolCalls, null, 2))}`);
  const details = messageDetails(message);
  if (details !== null) out.push(`<div class="tags">Details: <code>${escapeHtml(details)}</code></div>`);
  message.versions.forEach((version, index) => {
    out.push(
      `<details open><summary>Earlier version ${index + 1} (replaced at ${escapeHtml(version.replacedAt)}, rewrite stored in ${escapeHtml(version.rewrittenIn)})</summary>${pre(version.content)}</details>`,
    );
  });
  out.push('</article>');
  return out.join('\n');
};

const conversationBlock = (conversation: ExportedConversation): string => {
  const out = [
    `<section class="conversation" data-root="${escapeHtml(conversation.rootId)}">`,
    `<h2>${escapeHtml(conversationTitle(conversation))}</h2>`,
    `<p class="tags">Segments: ${escapeHtml(conversation.segments.join(' → '))}; ${conversation.messages.length} message(s).</p>`,
    // Titles, models, sources, extras and turns: erased with the rest by a deletion (helper-97 F7).
    `<p class="tags">Sessions:</p>${pre(JSON.stringify(conversation.sessions, null, 2))}`,
    ...(conversation.turns.length > 0 ? [`<p class="tags">Turns:</p>${pre(JSON.stringify(conversation.turns, null, 2))}`] : []),
  ];
  for (const item of itemsOf(conversation)) {
    if (item.kind === 'message') out.push(messageBlock(item.message, item.number));
    else {
      const summary = markerSummary(item.marker);
      out.push(`<aside class="marker ${escapeHtml(item.marker.kind)}"><strong>${escapeHtml(markerHeadline(item.marker))}</strong>${summary === null ? '' : pre(summary)}</aside>`);
    }
  }
  out.push('</section>');
  return out.join('\n');
};

const rawBlock = (content: RawContent): string =>
  content.events
    .map(
      (event) =>
        `<article class="message"><header><code>${escapeHtml(event.stream)}@${escapeHtml(String(event.revision))}</code> <strong>${escapeHtml(event.type)}</strong> <code>${escapeHtml(event.id)}</code> ${escapeHtml(event.created)}</header>${pre(JSON.stringify({ data: event.data, metadata: event.metadata }, null, 2))}</article>`,
    )
    .join('\n');

const manifestTable = (manifest: Manifest): string =>
  [
    '<table>',
    `<tr><th>view</th><td>${escapeHtml(manifest.view)}${manifest.filtered ? ` (filtered: only ${escapeHtml(manifest.only!.join(', '))})` : ''}</td></tr>`,
    `<tr><th>lineage</th><td>${escapeHtml(manifest.lineage)}</td></tr>`,
    `<tr><th>messages</th><td>${manifest.messageCount}</td></tr>`,
    `<tr><th>digest</th><td><code>${escapeHtml(manifest.digest)}</code></td></tr>`,
    `<tr><th>exported at</th><td>${escapeHtml(manifest.exportedAt)}</td></tr>`,
    ...manifest.streams.map((s) => `<tr><th>${escapeHtml(s.stream)}</th><td>revision ${s.revision}, chain head <code>${escapeHtml(String(s.chainHead))}</code></td></tr>`),
    '</table>',
  ].join('\n');

/** One self-contained HTML file: inline CSS, no external links, no executable script; the manifest as JSON data. */
export const renderHtml = (content: ExportContent, manifest: Manifest): string => {
  const body = content.view === 'display' ? (content as DisplayContent).conversations.map(conversationBlock).join('\n') : rawBlock(content);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conversation ${escapeHtml(manifest.rootId)} (session-ledger export)</title>
<style>${STYLE}</style>
<script type="application/json" id="${MANIFEST_SCRIPT_ID}">${scriptJson(manifest)}</script>
</head>
<body>
<header><h1>Conversation ${escapeHtml(manifest.rootId)}</h1>
<p>Export of the <strong>${escapeHtml(manifest.view)}</strong> view${manifest.view === 'display' ? ': compacted messages included and marked, rewritten messages with their earlier versions, tool calls and results, compaction and compression markers' : ': every stored event as stored'}.</p>
${manifestTable(manifest)}
</header>
<main>
${body}
</main>
</body>
</html>
`;
};
