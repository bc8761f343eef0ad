import type { DisplayMessage, DisplayView, Marker } from '@session-ledger/projections';

const markerLine = (marker: Marker): string => {
  switch (marker.kind) {
    case 'compaction':
      return `--- compacted ${marker.replaced} message(s) above: ${marker.summary}`;
    case 'compression':
      return `=== continued in ${marker.childId}: ${marker.summary}`;
    case 'child':
      return `--- ${marker.link} ${marker.childId} started here`;
    case 'ended':
      return `=== session ended${marker.reason ? `: ${marker.reason}` : ''}`;
    case 'reopened':
      return '=== session reopened';
    case 'withdrawn':
      return `=== continuation in ${marker.childId} withdrawn: the session goes on here`;
  }
};

const toolCallText = (call: Record<string, unknown>): string => {
  const fn = call.function as { name?: unknown; arguments?: unknown } | undefined;
  const name = typeof fn?.name === 'string' ? fn.name : typeof call.name === 'string' ? call.name : 'tool';
  const args = fn?.arguments ?? call.arguments ?? call.input;
  return `${name}(${typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args)})`;
};

const messageLines = (message: DisplayMessage): string[] => {
  const tags = [message.compacted ? 'compacted' : null, message.rewritten ? `rewritten x${message.versions.length}` : null].filter(Boolean);
  const who = message.role === 'tool' && message.toolName ? `tool ${message.toolName}` : message.role;
  const head = `[${message.timestamp}] ${who}${tags.length > 0 ? ` (${tags.join(', ')})` : ''}:`;
  const lines = [message.content === null ? head : `${head} ${message.content}`];
  for (const call of message.toolCalls ?? []) lines.push(`    -> ${toolCallText(call)}`);
  // The display keeps every earlier version; the text said only "rewritten x1" (outside test, session 35, helper-97 F5).
  for (const version of message.versions) lines.push(`    was: ${version.content ?? ''}`);
  return lines;
};

/**
 * Every line after the first of a multi-line value (content, summary, tool arguments, names) starts
 * with `  | `: it stays readable, and can never pass for a message head, a marker or a tool call line.
 */
const CONTINUATION = '  | ';
const continued = (line: string): string => line.replace(/\r?\n/g, `\n${CONTINUATION}`);

/** The display view as text, for `sessions resume`: every message root to tip, markers where they happened. */
export const renderTranscript = (view: DisplayView): string => {
  const out = [`Conversation ${view.rootId} (tip ${view.tipId}; ${view.segments.length} segment(s), ${view.messages.length} message(s))`];
  let next = 0;
  const markersUpTo = (index: number) => {
    while (next < view.markers.length && view.markers[next]!.index <= index) out.push(markerLine(view.markers[next++]!));
  };
  view.messages.forEach((message, index) => {
    markersUpTo(index);
    out.push(...messageLines(message));
  });
  markersUpTo(Number.POSITIVE_INFINITY);
  return `${out.map(continued).join('\n')}\n`;
};
