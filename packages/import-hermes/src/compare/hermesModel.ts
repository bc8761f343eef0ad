import { canonicalJson, type JsonValue } from '@session-ledger/core';
import { truthyJson } from '../mapping/hermesRead.js';
import type { HermesShaped } from './hermesShape.js';

const calls = (item: HermesShaped): JsonValue[] => (item.toolCalls ? (JSON.parse(item.toolCalls) as JsonValue[]) : []);

const callIds = (item: HermesShaped): Set<string> => {
  const ids = new Set<string>();
  for (const call of calls(item)) {
    if (!call || typeof call !== 'object' || Array.isArray(call)) continue;
    for (const key of ['id', 'call_id']) if (typeof call[key] === 'string' && call[key] !== '') ids.add(call[key]);
  }
  return ids;
};

/** Finish reasons of a provisional answer that a later one supersedes (verify-on-stop, #65919). */
export const VERIFICATION_CANDIDATE = new Set(['verification_required', 'verify_hook_continue']);

/**
 * A Codex interim turn as Hermes' repair tells it: `finish_reason = incomplete`, or Codex replay items
 * (`codex_reasoning_items`, `codex_message_items`: stored JSON that reads back non-empty).
 */
export const codexInterim = (finishReason: string | null, columns: Readonly<Record<string, unknown>>): boolean =>
  finishReason === 'incomplete' ||
  ['codex_reasoning_items', 'codex_message_items'].some((key) => {
    const value = columns[key];
    return typeof value === 'string' && truthyJson(value);
  });

/** What Hermes' repair reads of an assistant turn beside its shape. */
export interface RepairHints {
  /** Verification candidates: replaced by the assistant turn right after them (schema 23). */
  candidates?: ReadonlySet<HermesShaped>;
  /** Codex interim turns (`codex_*_items`, or `finish_reason = incomplete`): never merged or replaced. */
  interims?: ReadonlySet<HermesShaped>;
}

/**
 * Two assistant turns with nothing between them become one (tool calls united, texts joined by a
 * line), except that a verification candidate is replaced by the turn after it, and a Codex interim
 * turn is left apart from its neighbours.
 */
const mergeAssistants = (items: HermesShaped[], hints: RepairHints): HermesShaped[] => {
  const candidates = hints.candidates ?? new Set();
  const interims = hints.interims ?? new Set();
  const out: HermesShaped[] = [];
  const source: HermesShaped[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    const last = source[source.length - 1];
    if (!prev || item.role !== 'assistant' || prev.role !== 'assistant' || interims.has(item) || (last !== undefined && interims.has(last))) {
      out.push({ ...item });
      source.push(item);
      continue;
    }
    if (last !== undefined && candidates.has(last)) {
      out[out.length - 1] = { ...item };
      source[source.length - 1] = item;
      continue;
    }
    const united = [...calls(prev), ...calls(item)];
    if (united.length > 0) prev.toolCalls = canonicalJson(united);
    if (typeof prev.content === 'string' && typeof item.content === 'string') {
      prev.content = [prev.content.trim(), item.content.trim()].filter((text) => text !== '').join('\n');
    } else if (!prev.content && item.content !== null) prev.content = item.content;
  }
  return out;
};

/** A tool result that answers no call of the assistant turn before it (or answers one twice) is dropped. */
const dropStrayTools = (items: HermesShaped[]): HermesShaped[] => {
  const out: HermesShaped[] = [];
  let known = new Set<string>();
  for (const item of items) {
    if (item.role === 'assistant') known = callIds(item);
    else if (item.role === 'tool') {
      if (item.toolCallId === null || !known.has(item.toolCallId)) continue;
      known.delete(item.toolCallId);
    } else if (item.role === 'user') known = new Set();
    out.push(item);
  }
  return out;
};

/** Two user turns in a row become one, their texts joined by a blank line (list content is left apart). */
const mergeUsers = (items: HermesShaped[]): HermesShaped[] => {
  const out: HermesShaped[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (prev && item.role === 'user' && prev.role === 'user' && typeof prev.content === 'string' && typeof item.content === 'string') {
      prev.content = prev.content && item.content ? `${prev.content}\n\n${item.content}` : prev.content || item.content;
      continue;
    }
    out.push(item);
  }
  return out;
};

/**
 * Hermes' repair of the role alternation before it sends a history to the model (schema 26,
 * `repair_message_sequence`): consecutive assistant turns merged (a verification candidate replaced by
 * the turn after it, a Codex interim turn left apart: `hints`), stray tool results dropped, consecutive
 * user turns merged. Pure: the items given are not changed.
 */
export const repairAlternation = (items: HermesShaped[], hints: RepairHints = {}): HermesShaped[] =>
  mergeUsers(dropStrayTools(mergeAssistants(items, hints)));
