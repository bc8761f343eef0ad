import type { HermesMessage, HermesSession, RowState } from '../model.js';
import { carriesSummary } from '../mapping/hermesRead.js';
import { MESSAGE_MAPPED, SESSION_MAPPED } from './columns.js';
import type { JsonObject } from '@session-ledger/core';
import { cellToJson, extraColumns, inexactNumber, keepLossyText, keptBeside, numberOrNull, parseJsonObject, textOrNull } from './values.js';

type Row = Record<string, unknown>;

/** The text cells of a session and of a message, by the model's field name: a BLOB in one that is no UTF-8 is kept as it is (`$field`). */
const SESSION_TEXT = [['id', 'id'], ['source', 'source'], ['model', 'model'], ['title', 'title'], ['endReason', 'end_reason'], ['parentSessionId', 'parent_session_id'], ['modelConfig', 'model_config']] as const;
const MESSAGE_TEXT = [['content', 'content'], ['role', 'role'], ['sessionId', 'sessionId'], ['toolCalls', 'toolCalls'], ['toolCallId', 'toolCallId'], ['toolName', 'toolName'], ['finishReason', 'finishReason'], ['reasoning', 'reasoning']] as const;

/**
 * The session's columns the mapping does not know, after the cells it cannot read exactly, kept as
 * they are: its time cells (`$startedAt`, `$endedAt`) and text cells holding a BLOB that is no UTF-8
 * (`$title`, `$model`, ...).
 */
const sessionExtra = (row: Row): JsonObject => {
  const kept: JsonObject = {};
  for (const [field, column] of SESSION_TEXT) keepLossyText(kept, field, row[column]);
  if (inexactNumber(row.ended_at)) kept.$endedAt = cellToJson(row.ended_at);
  if (inexactNumber(row.started_at)) kept.$startedAt = cellToJson(row.started_at);
  return keptBeside(kept, extraColumns(row, SESSION_MAPPED));
};

export const toSession = (row: Row): HermesSession => {
  const modelConfig = textOrNull(row.model_config);
  return {
    id: textOrNull(row.id) ?? '',
    source: textOrNull(row.source),
    model: textOrNull(row.model),
    title: textOrNull(row.title),
    startedAt: numberOrNull(row.started_at),
    endedAt: numberOrNull(row.ended_at),
    endReason: textOrNull(row.end_reason),
    parentSessionId: textOrNull(row.parent_session_id),
    modelConfig: parseJsonObject(modelConfig),
    extra: sessionExtra(row),
  };
};

const flag = (value: unknown): number | null => numberOrNull(value);

/** Hermes' own predicates: `active = 1` is live; `compacted = 1` is display-only; anything else is neither. */
const stateOf = (active: unknown, compacted: unknown, hasRowFlags: boolean): RowState => {
  if (!hasRowFlags) return 'active';
  if (flag(active) === 1) return 'active';
  if (flag(compacted) === 1) return 'compacted';
  return 'rewound';
};

/**
 * Where each column is in a raw row of `SELECT * FROM messages` (better-sqlite3's `.raw()`: an array
 * of cells, no object per row), worked out once per statement: -1 for a column the file lacks.
 */
export interface MessageLayout {
  id: number;
  sessionId: number;
  role: number;
  content: number;
  toolCalls: number;
  toolCallId: number;
  toolName: number;
  timestamp: number;
  tokenCount: number;
  finishReason: number;
  reasoning: number;
  active: number;
  compacted: number;
  compressedSummary: number;
  /** Every column the mapping does not read, with its index, by name in code-unit order (the canonical one). */
  extra: Array<[string, number]>;
  hasRowFlags: boolean;
}

export const messageLayout = (columns: string[], hasRowFlags: boolean): MessageLayout => {
  const at = (name: string) => columns.indexOf(name);
  const extra = columns.flatMap((name, index): Array<[string, number]> => (MESSAGE_MAPPED.has(name) ? [] : [[name, index]]));
  extra.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    id: at('id'),
    sessionId: at('session_id'),
    role: at('role'),
    content: at('content'),
    toolCalls: at('tool_calls'),
    toolCallId: at('tool_call_id'),
    toolName: at('tool_name'),
    timestamp: at('timestamp'),
    tokenCount: at('token_count'),
    finishReason: at('finish_reason'),
    reasoning: at('reasoning'),
    active: at('active'),
    compacted: at('compacted'),
    compressedSummary: at('_compressed_summary'),
    extra,
    hasRowFlags,
  };
};

/** One raw `messages` row (cells in the statement's column order) as a HermesMessage. */
export const toMessage = (cells: unknown[], layout: MessageLayout): HermesMessage => {
  const cell = (index: number): unknown => (index < 0 ? undefined : cells[index]);
  const active = cell(layout.active);
  const compacted = cell(layout.compacted);
  const kept: JsonObject = {};
  for (const [field, at] of MESSAGE_TEXT) keepLossyText(kept, field, cell(layout[at]));
  const odd = [active, compacted].some((v) => v !== undefined && flag(v) !== 0 && flag(v) !== 1);
  if (layout.hasRowFlags && odd) kept.$flags = { active: cellToJson(active), compacted: cellToJson(compacted) };
  // A timestamp it cannot read as a number ('noon', a BLOB) is kept as it is, as is a text cell holding a BLOB that is no UTF-8.
  const time = cell(layout.timestamp);
  if (inexactNumber(time)) kept.$timestamp = cellToJson(time);
  const columns: JsonObject = {};
  for (const [name, index] of layout.extra) columns[name] = cellToJson(cells[index]);
  const extra = keptBeside(kept, columns);
  const content = textOrNull(cell(layout.content));
  return {
    rowId: numberOrNull(cell(layout.id)) ?? 0,
    sessionId: textOrNull(cell(layout.sessionId)) ?? '',
    role: textOrNull(cell(layout.role)) ?? '',
    content,
    toolCalls: textOrNull(cell(layout.toolCalls)),
    toolCallId: textOrNull(cell(layout.toolCallId)),
    toolName: textOrNull(cell(layout.toolName)),
    timestamp: numberOrNull(cell(layout.timestamp)),
    tokenCount: numberOrNull(cell(layout.tokenCount)),
    finishReason: textOrNull(cell(layout.finishReason)),
    reasoning: textOrNull(cell(layout.reasoning)),
    state: stateOf(active, compacted, layout.hasRowFlags),
    summary: flag(cell(layout.compressedSummary)) === 1,
    summaryText: layout.compressedSummary < 0 && carriesSummary(content),
    extra,
  };
};
