import type { HermesMessage, HermesSession, RowState } from '../model.js';
import { carriesSummary } from '../mapping/hermesRead.js';
import { MESSAGE_MAPPED, SESSION_MAPPED } from './columns.js';
import { cellToJson, extraColumns, numberOrNull, parseJsonObject, textOrNull } from './values.js';

type Row = Record<string, unknown>;

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
    extra: extraColumns(row, SESSION_MAPPED),
  };
};

const flag = (value: unknown): number | null => numberOrNull(value);

/** Hermes' own predicates: `active = 1` is live; `compacted = 1` is display-only; anything else is neither. */
const stateOf = (row: Row, hasRowFlags: boolean): RowState => {
  if (!hasRowFlags) return 'active';
  if (flag(row.active) === 1) return 'active';
  if (flag(row.compacted) === 1) return 'compacted';
  return 'rewound';
};

export const toMessage = (row: Row, hasRowFlags: boolean): HermesMessage => {
  const extra = extraColumns(row, MESSAGE_MAPPED);
  const odd = [row.active, row.compacted].some((v) => v !== undefined && flag(v) !== 0 && flag(v) !== 1);
  if (hasRowFlags && odd) extra.$flags = { active: cellToJson(row.active), compacted: cellToJson(row.compacted) };
  return {
    rowId: numberOrNull(row.id) ?? 0,
    sessionId: textOrNull(row.session_id) ?? '',
    role: textOrNull(row.role) ?? '',
    content: textOrNull(row.content),
    toolCalls: textOrNull(row.tool_calls),
    toolCallId: textOrNull(row.tool_call_id),
    toolName: textOrNull(row.tool_name),
    timestamp: numberOrNull(row.timestamp),
    tokenCount: numberOrNull(row.token_count),
    finishReason: textOrNull(row.finish_reason),
    reasoning: textOrNull(row.reasoning),
    state: stateOf(row, hasRowFlags),
    summary: flag(row._compressed_summary) === 1,
    summaryText: row._compressed_summary === undefined && carriesSummary(textOrNull(row.content)),
    extra,
  };
};
