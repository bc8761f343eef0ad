import { nestsDeeperThan, type JsonValue } from '@session-ledger/core';
import { pythonLstrip, pythonStrip } from '@session-ledger/memory';

/**
 * About where Python's json.loads stops with RecursionError (its default recursion limit is 1,000):
 * Hermes reads deeper JSON as undecodable, and so does this model of it (canonicalJson would also
 * overflow the stack on it).
 */
export const PYTHON_JSON_DEPTH = 990;

/**
 * What Hermes does to a stored content when it reads a message back (`get_messages_as_conversation`,
 * schema 26): list content stored as `"\u0000json:" + JSON` is decoded to its parts; user and
 * assistant text has injected `<memory-context>` blocks, the recalled-memory system note and stray
 * fence tags removed and is then trimmed (Python's `str.strip`). Tool and system text is left as is.
 */
const JSON_PREFIX = '\u0000json:';
const CONTEXT_BLOCK = /<\s*memory-context\s*>[\s\S]*?<\/\s*memory-context\s*>/gi;
const MEMORY_NOTE =
  /\[System note:\s*The following is recalled memory context,\s*NOT new user input\.\s*Treat as (?:informational background data|authoritative reference data[^\]]*)\.\]\s*/gi;
const FENCE_TAG = /<\/?\s*memory-context\s*>/gi;
export { pythonStrip };

export const sanitizeContext = (text: string): string => text.replace(CONTEXT_BLOCK, '').replace(MEMORY_NOTE, '').replace(FENCE_TAG, '');

/** The parts of list content as Hermes decodes them (Python's json: a "__proto__" key is a key), or undefined when the stored text is not that encoding or does not decode. */
export const decodeParts = (stored: string | null): JsonValue | undefined => {
  if (stored === null || !stored.startsWith(JSON_PREFIX)) return undefined;
  const text = stored.slice(JSON_PREFIX.length);
  if (nestsDeeperThan(text, PYTHON_JSON_DEPTH)) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
};

/** The text of decoded parts: every text part, one per line (what a text-only reader is given). */
const partsText = (parts: JsonValue): string => {
  if (!Array.isArray(parts)) return '';
  const texts: string[] = [];
  for (const part of parts) {
    if (part && typeof part === 'object' && !Array.isArray(part) && part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
  }
  return texts.join('\n');
};

export interface ReadContent {
  /** The text Hermes shows (for list content: its text parts). */
  content: string | null;
  /** Decoded list content, when the row stored one. */
  parts?: JsonValue;
}

/** A bare protocol or tool-name marker such as `[memory]` (Hermes' `_STALE_TOOL_CALL_MARKER_RE`). */
const STALE_MARKER = /^\[[A-Za-z_][A-Za-z0-9_.-]*\]$/;

/** Whether a stored JSON column reads back as a truthy value in Python (an undecodable one reads as empty). */
export const truthyJson = (stored: string | null): boolean => {
  if (!stored) return false;
  try {
    const value: unknown = JSON.parse(stored);
    if (Array.isArray(value)) return value.length > 0;
    if (value && typeof value === 'object') return Object.keys(value).length > 0;
    return Boolean(value);
  } catch {
    return false;
  }
};

/**
 * A stored content as Hermes reads it. From schema 26 Hermes also blanks an assistant row's content
 * that is only a bare marker (`[memory]`) when the row has tool calls: agents before its #78148 fix
 * persisted the marker as if it were an answer.
 */
export const readContent = (role: string, stored: string | null, toolCalls: string | null = null): ReadContent => {
  const parts = decodeParts(stored);
  if (parts !== undefined) return { content: partsText(parts), parts };
  if (stored === null || (role !== 'user' && role !== 'assistant')) return { content: stored };
  const content = pythonStrip(sanitizeContext(stored));
  return { content: role === 'assistant' && STALE_MARKER.test(content) && truthyJson(toolCalls) ? '' : content };
};

/** Hermes' openings of the background-review harness prompts (stripped on read, with the reply after each). */
const REVIEW_HARNESS = ['Review the conversation above and update the skill library', 'Review the conversation above and consider saving to memory'];

/** The role of the gateway's transcript header row (tool definitions, model, platform): not a message to show or send. */
export const SESSION_META = 'session_meta';

export const isReviewHarness = (role: string, stored: string | null): boolean => {
  if ((role !== 'user' && role !== 'system') || stored === null) return false;
  const text = pythonLstrip(stored);
  return REVIEW_HARNESS.some((prefix) => text.startsWith(prefix));
};

/**
 * A row that carries a compaction summary, recognised by the text Hermes' compressor writes: its
 * summary prefix (current and legacy), or the delimiter of a summary merged into a carried row.
 */
export const carriesSummary = (stored: string | null): boolean =>
  stored !== null &&
  (stored.startsWith('[CONTEXT COMPACTION') ||
    stored.startsWith('[CONTEXT SUMMARY]:') ||
    stored.includes('[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]'));
