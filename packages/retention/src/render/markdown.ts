import type { Manifest } from '../manifest.js';
import type { DisplayContent, ExportContent, ExportedConversation, ExportedMessage, RawContent } from '../view/content.js';
import { frontMatter } from './frontMatter.js';
import { codeSpan, inlineText } from './markdownText.js';
import { markerHeadline, markerSummary, messageDetails, messageTags } from './text.js';
import { conversationTitle, itemsOf } from './walk.js';

/** A fenced block longer than any backtick run inside, so any content comes back exactly as written. */
export const fenced = (text: string, info = 'text'): string => {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
};

/** How markers are set apart (a rule and bold text in Markdown, a callout in Quarto), and a last pass over the body. */
export interface MarkdownStyle {
  /** `headline` is already escaped text. */
  marker: (headline: string, summary: string | null) => string;
  body?: (text: string) => string;
}

/** Ids as code spans (never a link, an emoji or emphasis), the text around them escaped. */
const MARKDOWN_PARTS = { id: codeSpan, text: inlineText };

const plainMarker: MarkdownStyle['marker'] = (headline, summary) =>
  ['---', '', `**${headline}**`, ...(summary === null ? [] : ['', fenced(summary)])].join('\n');

const messageBlock = (message: ExportedMessage, number: number): string => {
  const tags = messageTags(message);
  const out = [`### ${number} · ${inlineText(message.role)} · ${codeSpan(message.id)} · ${inlineText(message.timestamp)}${tags.length > 0 ? ` · *${inlineText(tags.join('; '))}*` : ''}`, ''];
  out.push(message.content === null ? '*(no text content)*' : fenced(message.content));
  if (message.reasoning !== undefined) out.push('', 'Reasoning:', '', fenced(message.reasoning));
  if ((message.toolCalls?.length ?? 0) > 0) out.push('', 'Tool calls:', '', fenced(JSON.stringify(message.toolCalls, null, 2), 'json'));
  const details = messageDetails(message);
  if (details !== null) out.push('', 'Details:', '', fenced(details, 'json'));
  message.versions.forEach((version, index) => {
    out.push('', `#### Earlier version ${index + 1} (replaced at ${inlineText(version.replacedAt)}, rewrite stored in segment ${codeSpan(version.rewrittenIn)})`, '');
    out.push(version.content === null ? '*(no text content)*' : fenced(version.content));
  });
  return out.join('\n');
};

const conversationBlock = (conversation: ExportedConversation, style: MarkdownStyle): string => {
  const out = [`## ${conversationTitle(conversation, MARKDOWN_PARTS)}`, '', `Segments: ${conversation.segments.map(codeSpan).join(' → ')}; ${conversation.messages.length} message(s).`];
  // Titles, models, sources, extras and turns: erased with the rest by a deletion (helper-97 F7).
  out.push('', 'Sessions:', '', fenced(JSON.stringify(conversation.sessions, null, 2), 'json'));
  if (conversation.turns.length > 0) out.push('', 'Turns:', '', fenced(JSON.stringify(conversation.turns, null, 2), 'json'));
  for (const item of itemsOf(conversation)) {
    out.push('', item.kind === 'message' ? messageBlock(item.message, item.number) : style.marker(markerHeadline(item.marker, MARKDOWN_PARTS), markerSummary(item.marker)));
  }
  return out.join('\n');
};

const intro = (manifest: Manifest): string =>
  [
    `# Conversation ${codeSpan(manifest.rootId)}`,
    '',
    manifest.view === 'display'
      ? `Export of the **display** view (${inlineText(manifest.lineage)} lineage): every message as a person sees it, compacted messages included and marked, rewritten messages with their earlier versions, tool calls and results, compaction and compression markers.`
      : `Export of the **raw** view (${inlineText(manifest.lineage)} lineage): every stored event of every covered stream, as stored.`,
    ...(manifest.filtered ? ['', `**Filtered export**: only the roles ${inlineText(manifest.only!.join(', '))}; other messages are left out.`] : []),
    '',
    `${manifest.messageCount} message(s) from ${manifest.streams.length} stream(s); digest ${codeSpan(manifest.digest)}.`,
  ].join('\n');

const displayBody = (content: DisplayContent, style: MarkdownStyle) => content.conversations.map((conversation) => conversationBlock(conversation, style));

const rawBody = (content: RawContent) => {
  const out: string[] = [];
  let stream = '';
  for (const event of content.events) {
    if (event.stream !== stream) out.push(`## Stream ${codeSpan((stream = event.stream))}`);
    out.push(`### ${inlineText(String(event.revision))} · ${codeSpan(event.type)} · ${codeSpan(event.id)} · ${inlineText(event.created)}\n\n${fenced(JSON.stringify({ data: event.data, metadata: event.metadata }, null, 2), 'json')}`);
  }
  return out;
};

/** A Markdown transcript: YAML front matter holding the manifest, then the content. */
export const renderMarkdown = (content: ExportContent, manifest: Manifest, style: MarkdownStyle = { marker: plainMarker }, extra: Record<string, string> = {}): string => {
  const body = [intro(manifest), ...(content.view === 'display' ? displayBody(content, style) : rawBody(content))].join('\n\n');
  return `${frontMatter(manifest, extra)}\n${style.body ? style.body(body) : body}\n`;
};
