import type { HermesMessage } from '../model.js';

/**
 * Hermes' identity of one logical message across compaction generations: role, content, timestamp,
 * tool_call_id, tool_calls, tool_name (a carried-over copy repeats all six).
 */
export const displayKey = (m: HermesMessage): string =>
  JSON.stringify([m.role, m.content, m.timestamp, m.toolCallId, m.toolCalls, m.toolName]);

const inDisplay = (m: HermesMessage) => m.state === 'active' || m.state === 'compacted';

/**
 * Hermes' display history of one session: rows that are active or compacted, in id order, each logical
 * message once, at the place of its first row. Returns the first row of each logical message (its
 * content is the same in every copy by construction of the key).
 */
export const displayHistory = (rows: HermesMessage[]): HermesMessage[] => {
  const seen = new Set<string>();
  const out: HermesMessage[] = [];
  for (const row of rows) {
    if (!inDisplay(row)) continue;
    const key = displayKey(row);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(row);
  }
  return out;
};

/** Hermes' active (model) history: rows with active = 1, in id order. */
export const activeHistory = (rows: HermesMessage[]): HermesMessage[] => rows.filter((row) => row.state === 'active');

/** Row ids that Hermes shows in neither view only because an earlier row carries the same logical message. */
export const displayDuplicates = (rows: HermesMessage[]): Set<number> => {
  const shown = new Set(displayHistory(rows).map((row) => row.rowId));
  return new Set(rows.filter((row) => inDisplay(row) && !shown.has(row.rowId)).map((row) => row.rowId));
};
