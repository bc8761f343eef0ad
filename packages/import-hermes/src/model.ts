import type { JsonObject, JsonValue } from '@session-ledger/core';

/** One row of Hermes' `sessions` table: the columns the mapping knows, the rest kept verbatim in `extra`. */
export interface HermesSession {
  id: string;
  source: string | null;
  model: string | null;
  title: string | null;
  /** Epoch seconds, as Hermes stores them (REAL). */
  startedAt: number | null;
  endedAt: number | null;
  endReason: string | null;
  parentSessionId: string | null;
  /** `model_config` parsed when it is a JSON object (lineage markers live there); also kept raw in `extra`. */
  modelConfig: JsonObject | null;
  /** Every other column, by name; BLOBs as `{ "$base64": ... }`, integers beyond 2^53 as strings. */
  extra: JsonObject;
}

/** Where a row stands in Hermes' views. */
export type RowState =
  /** active = 1: in the model's history and in the display history. */
  | 'active'
  /** active = 0, compacted = 1: summarized away by in-place compaction; still displayed. */
  | 'compacted'
  /** active = 0, compacted = 0: rewound, undone or carried over; in neither view. */
  | 'rewound';

/** One row of Hermes' `messages` table. */
export interface HermesMessage {
  /** messages.id: Hermes' insertion order. */
  rowId: number;
  sessionId: string;
  role: string;
  content: string | null;
  /** tool_calls as stored (JSON text). */
  toolCalls: string | null;
  toolCallId: string | null;
  toolName: string | null;
  timestamp: number | null;
  tokenCount: number | null;
  finishReason: string | null;
  reasoning: string | null;
  state: RowState;
  /** `_compressed_summary = 1`: a row written by compaction to stand for what it summarized. */
  summary: boolean;
  /**
   * In a file without `_compressed_summary`: the row carries a summary, recognised by the text Hermes'
   * compressor writes. Such a row stays a message (Hermes sends it to the model where it stands).
   */
  summaryText: boolean;
  extra: JsonObject;
}

export interface HermesSchema {
  /** schema_version.version, or null when the table is absent or empty. */
  version: number | null;
  sessionColumns: string[];
  messageColumns: string[];
  /** Whether the file has the `active` flag (schema 14 on; `compacted` came with schema 16). */
  hasRowFlags: boolean;
}

/** Everything read from one state.db in one read transaction. */
export interface HermesSnapshot {
  path: string;
  schema: HermesSchema;
  /** In started_at order, parents before their children where times tie. */
  sessions: HermesSession[];
  /** Each session's rows in id order. */
  messages: Map<string, HermesMessage[]>;
  messageCount: number;
}

export type { JsonValue };
