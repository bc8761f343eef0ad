import type { ErrorType } from '@session-ledger/core';

/** The one table from error types to HTTP statuses (a deleted stream or session is 410 Gone: it will not come back). */
export const HTTP_STATUSES: Record<ErrorType, number> = {
  invalid_input: 400,
  import_source_invalid: 400,
  unsupported_version: 400,
  unauthorized: 401,
  stream_not_found: 404,
  not_found: 404,
  turn_not_found: 404,
  wrong_expected_version: 409,
  session_active: 409,
  session_ended: 409,
  session_sealed: 409,
  ambiguous: 409,
  duplicate: 409,
  over_budget: 409,
  drift: 409,
  partial_deletion: 409,
  chain_broken: 409,
  log_damaged: 409,
  verification_failed: 409,
  stream_deleted: 410,
  session_deleted: 410,
  precondition_failed: 412,
  store_unavailable: 503,
  /** The store keeps no log commitment (EventStoreDB): the server cannot do this. */
  log_unsupported: 501,
  read_model_faulted: 503,
  /** A search stopped at its deadline (read-models' searchThread): the server stopped it, not the query's syntax. */
  search_timeout: 503,
};
