import { canonicalJson, type JsonObject, type JsonValue } from '@session-ledger/core';
import type { ActiveView, DisplayView, DisplayMessage } from '@session-ledger/projections';
import { codexInterim, repairAlternation, VERIFICATION_CANDIDATE } from './hermesModel.js';

/**
 * One message as Hermes' read APIs return it, reduced to what the comparison looks at (the
 * normalisation documented in the package README): role, content (text, or the list of parts of
 * multimodal content), tool calls (canonical JSON), tool call id and tool name (null when empty).
 */
export interface HermesShaped {
  role: string;
  content: JsonValue;
  toolCalls: string | null;
  toolCallId: string | null;
  toolName: string | null;
}

const orNull = (value: JsonValue | undefined): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A message of Hermes' own output (`get_messages_as_conversation`): already read the way Hermes reads. */
export const fromHermes = (message: JsonObject): HermesShaped => ({
  role: String(message.role),
  content: message.content ?? null,
  toolCalls: Array.isArray(message.tool_calls) && message.tool_calls.length > 0 ? canonicalJson(message.tool_calls) : null,
  toolCallId: orNull(message.tool_call_id),
  toolName: orNull(message.tool_name),
});

const hermesExtra = (message: DisplayMessage): JsonObject => {
  const value = message.extra?.hermes;
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
};

/** A ledger message in the same shape. */
export const fromLedger = (message: DisplayMessage): HermesShaped => {
  const hermes = hermesExtra(message);
  return {
    role: typeof hermes.role === 'string' ? hermes.role : message.role,
    content: hermes.parts !== undefined ? hermes.parts : message.content,
    toolCalls: message.toolCalls && message.toolCalls.length > 0 ? canonicalJson(message.toolCalls) : null,
    toolCallId: message.toolCallId ?? null,
    toolName: message.toolName ?? null,
  };
};

/** The ledger's display view as Hermes shows a resumed conversation. */
export const displayAsHermes = (view: DisplayView): HermesShaped[] => view.messages.filter((m) => !m.compacted).map(fromLedger);

/** The ledger's active view as Hermes sends it to the model on resume: its alternation repair applied. */
export const activeAsHermes = (view: ActiveView): HermesShaped[] => {
  const candidates = new Set<HermesShaped>();
  const interims = new Set<HermesShaped>();
  const items = view.messages.map((item): HermesShaped => {
    if (item.kind === 'summary') return { role: item.role, content: item.content, toolCalls: null, toolCallId: null, toolName: null };
    const shaped = fromLedger(item);
    if (item.finishReason !== undefined && VERIFICATION_CANDIDATE.has(item.finishReason)) candidates.add(shaped);
    const columns = hermesExtra(item).columns;
    if (codexInterim(item.finishReason ?? null, columns && typeof columns === 'object' && !Array.isArray(columns) ? columns : {})) interims.add(shaped);
    return shaped;
  });
  return repairAlternation(items, { candidates, interims });
};
