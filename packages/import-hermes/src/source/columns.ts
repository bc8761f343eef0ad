/**
 * The columns the mapping reads by name. Every other column of `sessions` and `messages` is kept
 * verbatim in the imported events' `extra`; `model_config` is both parsed and kept.
 */
export const SESSION_MAPPED = new Set([
  'id',
  'source',
  'model',
  'title',
  'started_at',
  'ended_at',
  'end_reason',
  'parent_session_id',
]);

export const MESSAGE_MAPPED = new Set([
  'id',
  'session_id',
  'role',
  'content',
  'tool_calls',
  'tool_call_id',
  'tool_name',
  'timestamp',
  'token_count',
  'finish_reason',
  'reasoning',
  'active',
  'compacted',
  '_compressed_summary',
]);

/** Without these a file is not a Hermes state.db of any version. */
export const SESSION_REQUIRED = ['id'] as const;
export const MESSAGE_REQUIRED = ['id', 'session_id', 'role'] as const;
