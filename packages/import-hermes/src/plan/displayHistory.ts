import type { HermesMessage } from '../model.js';

/**
 * Hermes' identity of one logical message across compaction generations: role, content, timestamp,
 * tool_call_id, tool_calls, tool_name (a carried-over copy repeats all six).
 */
export const displayKey = (m: HermesMessage): string =>
  JSON.stringify([m.role, m.content, m.timestamp, m.toolCallId, m.toolCalls, m.toolName]);

const inDisplay = (m: HermesMessage) => m.state === 'active' || m.state === 'compacted';

/**
 * Hermes' display history of one session, as Hermes e89532d reads it (`get_messages(include_compacted=True)`):
 * rows that are active or compacted, each logical message once, as the row with the highest
 * (active, id) (a live copy, else the newest), in the id order of the rows kept. (Hermes after schema
 * 26 places it at its first row instead; the two differ only when a copy is written after other rows.)
 */
const live = (m: HermesMessage): number => (m.state === 'active' ? 1 : 0);

export const displayHistory = (rows: HermesMessage[]): HermesMessage[] => {
  const kept = new Map<string, HermesMessage>();
  for (const row of rows) {
    if (!inDisplay(row)) continue;
    const key = displayKey(row);
    const held = kept.get(key);
    if (held === undefined || live(row) > live(held) || (live(row) === live(held) && row.rowId > held.rowId)) kept.set(key, row);
  }
  return [...kept.values()].sort((a, b) => a.rowId - b.rowId);
};

/** Hermes' active (model) history: rows with active = 1, in id order. */
export const activeHistory = (rows: HermesMessage[]): HermesMessage[] => rows.filter((row) => row.state === 'active');

/** Row ids that Hermes shows in neither view only because another row carries the same logical message. */
export const displayDuplicates = (rows: HermesMessage[]): Set<number> => {
  const shown = new Set(displayHistory(rows).map((row) => row.rowId));
  return new Set(rows.filter((row) => inDisplay(row) && !shown.has(row.rowId)).map((row) => row.rowId));
};
