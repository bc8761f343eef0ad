import type { ExportedMarker, ExportedMessage } from '../view/content.js';

/** The words a marker stands for; its summary (user content) is rendered separately. */
/**
 * How a headline writes its parts: ids (summary, segment, child ids) and the text around them. Plain
 * by default (HTML escapes the whole line); Markdown writes ids as code spans and escapes the rest
 * (markdownText.ts), so no id becomes a link, an emoji or emphasis there.
 */
export interface HeadlineParts {
  id: (id: string) => string;
  text: (text: string) => string;
}

export const PLAIN_PARTS: HeadlineParts = { id: (id) => id, text: (text) => text };

export const markerHeadline = (marker: ExportedMarker, { id, text }: HeadlineParts = PLAIN_PARTS): string => {
  switch (marker.kind) {
    case 'compaction':
      return `${text('Compaction ')}${id(marker.summaryId)}${text(` at ${marker.at}: ${marker.replaced} message(s) above left the model's context (kept here, marked compacted), replaced by this summary`)}`;
    case 'compression':
      return `${text(`Compression at ${marker.at}: segment `)}${id(marker.sessionId)}${text(' continues in ')}${id(marker.childId)}${text(', whose context starts from this summary')}`;
    case 'child':
      return `${text(`A ${marker.link} child `)}${id(marker.childId)}${text(` started here (${marker.at})`)}`;
    case 'ended':
      return text(`Session ended at ${marker.at}${marker.reason === undefined ? '' : ` (${marker.reason})`}`);
    case 'reopened':
      return text(`Session reopened at ${marker.at}: it takes writes again`);
    case 'withdrawn':
      return `${text(`Continuation withdrawn at ${marker.at}: segment `)}${id(marker.sessionId)}${text(' no longer continues in ')}${id(marker.childId)}${text(' (kept as a conversation of its own) and takes writes again')}`;
  }
};

export const markerSummary = (marker: ExportedMarker): string | null =>
  marker.kind === 'compaction' || marker.kind === 'compression' ? marker.summary : null;

/** The tags a message carries in every transcript format. */
export const messageTags = (message: ExportedMessage): string[] => {
  const tags: string[] = [];
  if (message.compacted) tags.push(`compacted${message.compactedBy ? ` by ${message.compactedBy}` : ''}`);
  if (message.rewritten) tags.push(`rewritten ${message.versions.length}x`);
  if (message.role === 'tool') tags.push(`tool result${message.toolName ? ` of ${message.toolName}` : ''}${message.toolCallId ? ` for call ${message.toolCallId}` : ''}`);
  if ((message.toolCalls?.length ?? 0) > 0) tags.push(`${message.toolCalls!.length} tool call(s)`);
  return tags;
};

/** The fields of a message no heading shows, as one JSON object (absent when there are none). */
export const messageDetails = (message: ExportedMessage): string | null => {
  const details: Record<string, unknown> = {};
  if (message.turnId !== undefined) details.turnId = message.turnId;
  if (message.finishReason !== undefined) details.finishReason = message.finishReason;
  if (message.tokenCounts !== undefined) details.tokenCounts = message.tokenCounts;
  if (message.toolCallId !== undefined) details.toolCallId = message.toolCallId;
  if (message.extra !== undefined) details.extra = message.extra;
  return Object.keys(details).length === 0 ? null : JSON.stringify(details);
};
