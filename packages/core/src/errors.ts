/**
 * One error family for the whole ledger. `type` is the stable code that the CLI maps to
 * exit codes and the HTTP service to statuses (each in one table); `details` are typed per code.
 */
export interface ErrorDetails {
  wrong_expected_version: { stream: string; expected: string; actual: string };
  stream_not_found: { stream: string };
  stream_deleted: { stream: string };
  store_unavailable: { cause?: string };
  invalid_input: { field?: string };
  not_found: { what: string; id: string };
  session_deleted: { sessionId: string };
  session_active: { sessionId: string; turnId?: string; segment?: string };
  session_ended: { sessionId: string };
  session_sealed: { sessionId: string; tipId: string };
  turn_not_found: { sessionId: string; turnId: string };
  ambiguous: { selector: string; candidates: string[] };
  duplicate: { what: string };
  over_budget: { target: string; limit: number; used: number };
  unsupported_version: { eventType: string; version: number; supported: number };
  chain_broken: { stream: string; revision: string; expected: string; found: string };
  verification_failed: { what: string };
  drift: { stream: string; exported: string; current: string };
  /** A deletion of several streams stopped part way (EventStoreDB cannot tombstone several in one call): what went, what stayed. */
  partial_deletion: { deleted: string[]; kept: string[]; stream: string; exported: string; current: string };
  precondition_failed: { expected: string; current: string };
  unauthorized: Record<string, never>;
  /** A file given to an importer is missing, not SQLite, not the expected harness's store, corrupt or locked. */
  import_source_invalid: { path: string; reason: 'not_found' | 'not_sqlite' | 'not_hermes' | 'corrupt' | 'locked' | 'unreadable' };
}

export type ErrorType = keyof ErrorDetails;

export class LedgerError<T extends ErrorType = ErrorType> extends Error {
  readonly type: T;
  readonly details: ErrorDetails[T];
  constructor(type: T, message: string, details: ErrorDetails[T]) {
    super(message);
    this.name = 'LedgerError';
    this.type = type;
    this.details = details;
  }
  toJSON(): { type: T; message: string; details: ErrorDetails[T] } {
    return { type: this.type, message: this.message, details: this.details };
  }
}

export const ledgerError = <T extends ErrorType>(type: T, message: string, details: ErrorDetails[T]) =>
  new LedgerError(type, message, details);

export const isLedgerError = <T extends ErrorType>(error: unknown, type?: T): error is LedgerError<T> =>
  error instanceof LedgerError && (type === undefined || error.type === type);

export const wrongExpectedVersion = (stream: string, expected: string, actual: string) =>
  ledgerError(
    'wrong_expected_version',
    `Wrong expected revision on ${stream}: expected ${expected}, actual ${actual}`,
    { stream, expected, actual },
  );

export const streamNotFound = (stream: string) =>
  ledgerError('stream_not_found', `Stream not found: ${stream}`, { stream });

export const streamDeleted = (stream: string) =>
  ledgerError('stream_deleted', `Stream is deleted: ${stream}`, { stream });

export const invalidInput = (message: string, field?: string) =>
  ledgerError('invalid_input', message, field === undefined ? {} : { field });

export const storeUnavailable = (message: string, cause?: string) =>
  ledgerError('store_unavailable', message, cause === undefined ? {} : { cause });

export const notFound = (what: string, id: string) =>
  ledgerError('not_found', `${what} not found: ${id}`, { what, id });
