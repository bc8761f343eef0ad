import type { ErrorType } from '@session-ledger/core';

/** The one table from error types to exit codes: 1 refused or conflict, 2 bad usage or input, 3 not found, 4 store unavailable. */
export const EXIT_CODES: Record<ErrorType, number> = {
  wrong_expected_version: 1,
  stream_deleted: 1,
  session_deleted: 1,
  session_active: 1,
  session_ended: 1,
  session_sealed: 1,
  ambiguous: 1,
  duplicate: 1,
  over_budget: 1,
  chain_broken: 1,
  verification_failed: 1,
  drift: 1,
  partial_deletion: 1,
  precondition_failed: 1,
  unauthorized: 1,
  invalid_input: 2,
  import_source_invalid: 2,
  unsupported_version: 2,
  stream_not_found: 3,
  not_found: 3,
  turn_not_found: 3,
  store_unavailable: 4,
};

export const EXIT_OK = 0;
export const EXIT_USAGE = 2;
