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
  log_damaged: 1,
  verification_failed: 1,
  drift: 1,
  partial_deletion: 1,
  precondition_failed: 1,
  log_unsupported: 1,
  unauthorized: 1,
  /** Another `migrate` run holds the target's lease (packages/migrate: one run into a target at a time). */
  migration_running: 1,
  invalid_input: 2,
  import_source_invalid: 2,
  unsupported_version: 2,
  stream_not_found: 3,
  not_found: 3,
  turn_not_found: 3,
  store_unavailable: 4,
  read_model_faulted: 4,
  search_timeout: 4,
  workers_failing: 4,
};

export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;
/** An internal error (a bug): EX_SOFTWARE from sysexits.h. */
export const EXIT_INTERNAL = 70;

/** Every exit code the command can end with, as `--help` and the README state them. */
export const EXIT_CODE_TABLE: ReadonlyArray<readonly [number, string]> = [
  [0, 'ok (also when the reader of stdout goes away, as in `events all | head -1`)'],
  [1, 'refused or conflict: wrong expected revision, session active, sealed or deleted, drift, ambiguous selector, broken chain, a damaged log, a deletion not confirmed'],
  [2, 'bad usage or input, no command, destructive command without --yes off a terminal, migrate into its own source (one line on stderr; nothing stored changes)'],
  [3, 'not found (stream, session, turn, entry)'],
  [4, 'store unavailable: missing file for a read, not a ledger, locked, server unreachable; `serve --workers` stopped because its worker processes kept dying'],
  [70, 'internal error (a bug: please report it; SESSION_LEDGER_DEBUG=1 prints the stack)'],
];
