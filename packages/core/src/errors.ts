/**
 * One error family for the whole ledger. Core declares the generic codes; each module adds its own
 * to this interface where it owns them (TypeScript module augmentation: sessions, memory,
 * retention, import-hermes), so the CLI's and HTTP's tables, which import every module, must map
 * every code. `type` is the stable code that the CLI maps to
 * exit codes and the HTTP service to statuses (each in one table); `details` are typed per code.
 */
export interface ErrorDetails {
  wrong_expected_version: { stream: string; expected: string; actual: string };
  stream_not_found: { stream: string };
  stream_deleted: { stream: string };
  store_unavailable: { cause?: string };
  invalid_input: { field?: string };
  not_found: { what: string; id: string };
  ambiguous: { selector: string; candidates: string[] };
  duplicate: { what: string };
  unsupported_version: { eventType: string; version: number; supported: number };
  chain_broken: { stream: string; revision: string; expected: string; found: string };
  precondition_failed: { expected: string; current: string };
  unauthorized: Record<string, never>;
  /** A file given to an importer (jsonl, Hermes) is missing, not of its format, corrupt or locked. */
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

/** A recursion past the stack (V8: RangeError "Maximum call stack size exceeded"): a value nested too deep to walk. */
export const isStackOverflow = (error: unknown): error is RangeError => error instanceof RangeError && error.message.includes('call stack');

/**
 * A stack overflow while a surface writes a value out: every surface refuses JSON nested deeper than
 * MAX_JSON_DEPTH (100) before storing it, so a value too deep to walk was stored behind the store's
 * back (a ledger file edited by hand). It is answered as a damaged ledger (CLI exit 4, HTTP 503), not
 * as an internal error; `audit verify` names the event. Anything else: null.
 */
export const tooDeepToWrite = (error: unknown): LedgerError<'store_unavailable'> | null =>
  isStackOverflow(error)
    ? storeUnavailable('The ledger holds a value nested too deep to write out (deeper than any surface accepts: edited behind the store\'s back?); `audit verify` names the event', 'LEDGER_DAMAGED')
    : null;
