import { canonicalJson, type JsonValue } from '@session-ledger/core';
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
 * Two assistant turns with nothing between them become one (tool calls united, texts joined by a
 * line), except that a verification candidate is replaced by the turn after it (schema 23).
 */
const mergeAssistants = (items: HermesShaped[], candidates: ReadonlySet<HermesShaped>): HermesShaped[] => {
  const out: HermesShaped[] = [];
  const candidate: boolean[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (!prev || item.role !== 'assistant' || prev.role !== 'assistant') {
      out.push({ ...item });
      candidate.push(candidates.has(item));
      continue;
    }
    if (candidate[out.length - 1]) {
      out[out.length - 1] = { ...item };
      candidate[out.length - 1] = candidates.has(item);
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
 * `repair_message_sequence`): consecutive assistant turns merged (a verification candidate, one of
 * `candidates`, replaced by the turn after it), stray tool results dropped, consecutive user turns
 * merged. Pure: the items given are not changed.
 */
export const repairAlternation = (items: HermesShaped[], candidates: ReadonlySet<HermesShaped> = new Set()): HermesShaped[] =>
  mergeUsers(dropStrayTools(mergeAssistants(items, candidates)));
