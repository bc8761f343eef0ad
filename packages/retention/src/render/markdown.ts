import type { Manifest } from '../manifest.js';
import type { DisplayContent, ExportContent, ExportedConversation, ExportedMessage, RawContent } from '../view/content.js';
import { frontMatter } from './frontMatter.js';
import { markerHeadline, markerSummary, messageDetails, messageTags } from './text.js';
import { conversationTitle, itemsOf } from './walk.js';

/** A fenced block longer than any backtick run inside, so any content comes back exactly as written. */
export const fenced = (text: string, info = 'text'): string => {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
};

/** How markers are set apart: a rule and bold text in Markdown, a callout in Quarto. */
export interface MarkdownStyle {
  marker: (headline: string, summary: string | null) => string;
}

const plainMarker: MarkdownStyle['marker'] = (headline, summary) =>
  ['---', '', `**${headline}**`, ...(summary === null ? [] : ['', fenced(summary)])].join('\n');

const messageBlock = (message: ExportedMessage, number: number): string => {
  const tags = messageTags(message);
  const out = [`### ${number} · ${message.role} · \`${message.id}\` · ${message.timestamp}${tags.length > 0 ? ` · *${tags.join('; ')}*` : ''}`, ''];
  out.push(message.content === null ? '*(no text content)*' : fenced(message.content));
  if (message.reasoning !== undefined) out.push('', 'Reasoning:', '', fenced(message.reasoning));
  if ((message.toolCalls?.length ?? 0) > 0) out.push('', 'Tool calls:', '', fenced(JSON.stringify(message.toolCalls, null, 2), 'json'));
  const details = messageDetails(message);
  if (details !== null) out.push('', 'Details:', '', fenced(details, 'json'));
  message.versions.forEach((version, index) => {
    out.push('', `#### Earlier version ${index + 1} (replaced at ${version.replacedAt}, rewrite stored in segment \`${version.rewrittenIn}\`)`, '');
    out.push(version.content === null ? '*(no text content)*' : fenced(version.content));
  });
  return out.join('\n');
};

const conversationBlock = (conversation: ExportedConversation, style: MarkdownStyle): string => {
  const out = [`## ${conversationTitle(conversation)}`, '', `Segments: ${conversation.segments.map((id) => `\`${id}\``).join(' → ')}; ${conversation.messages.length} message(s).`];
  for (const item of itemsOf(conversation)) {
    out.push('', item.kind === 'message' ? messageBlock(item.message, item.number) : style.marker(markerHeadline(item.marker), markerSummary(item.marker)));
  }
  return out.join('\n');
};

const intro = (manifest: Manifest): string =>
  [
    `# Conversation \`${manifest.rootId}\``,
    '',
    manifest.view === 'display'
      ? `Export of the **display** view (${manifest.lineage} lineage): every message as a person sees it, compacted messages included and marked, rewritten messages with their earlier versions, tool calls and results, compaction and compression markers.`
      : `Export of the **raw** view (${manifest.lineage} lineage): every stored event of every covered stream, as stored.`,
    ...(manifest.filtered ? ['', `**Filtered export**: only the roles ${manifest.only!.join(', ')}; other messages are left out.`] : []),
    '',
    `${manifest.messageCount} message(s) from ${manifest.streams.length} stream(s); digest \`${manifest.digest}\`.`,
  ].join('\n');

const displayBody = (content: DisplayContent, style: MarkdownStyle) => content.conversations.map((conversation) => conversationBlock(conversation, style));

const rawBody = (content: RawContent) => {
  const out: string[] = [];
  let stream = '';
  for (const event of content.events) {
    if (event.stream !== stream) out.push(`## Stream \`${(stream = event.stream)}\``);
    out.push(`### ${event.revision} · \`${event.type}\` · \`${event.id}\` · ${event.created}\n\n${fenced(JSON.stringify({ data: event.data, metadata: event.metadata }, null, 2), 'json')}`);
  }
  return out;
};

/** A Markdown transcript: YAML front matter holding the manifest, then the content. */
export const renderMarkdown = (content: ExportContent, manifest: Manifest, style: MarkdownStyle = { marker: plainMarker }, extra: Record<string, string> = {}): string =>
  `${frontMatter(manifest, extra)}\n${[intro(manifest), ...(content.view === 'display' ? displayBody(content, style) : rawBody(content))].join('\n\n')}\n`;
