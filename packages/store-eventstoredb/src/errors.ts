import {
  ErrorType as ClientErrorType,
  isCommandError,
  type CurrentRevision,
  type AppendExpectedRevision,
} from '@eventstore/db-client';
import {
  formatExpected,
  invalidInput,
  isLedgerError,
  ledgerError,
  storeUnavailable,
  streamDeleted,
  streamNotFound,
  wrongExpectedVersion,
  type ExpectedRevision,
} from '@session-ledger/core';

/** What the adapter knows about the call that failed, for errors that do not carry it. */
export interface ErrorContext {
  stream?: string;
  expected?: ExpectedRevision;
}

type ClientRevision = CurrentRevision | AppendExpectedRevision | bigint | string | undefined;

/** A revision as the client reports it: negative numbers are EventStoreDB's "no stream" markers. */
const actualText = (actual: ClientRevision): string =>
  typeof actual === 'bigint' ? (actual < 0n ? 'no_stream' : actual.toString()) : actual === undefined ? 'no_stream' : String(actual);

const expectedText = (expected: ClientRevision, context: ErrorContext): string => {
  if (context.expected !== undefined) return formatExpected(context.expected);
  if (typeof expected !== 'bigint') return String(expected ?? 'any');
  if (expected === -1n) return 'no_stream';
  if (expected === -2n) return 'any';
  if (expected === -4n) return 'stream_exists';
  return expected.toString();
};

const UNAVAILABLE = new Set<string>([
  ClientErrorType.UNAVAILABLE,
  ClientErrorType.DEADLINE_EXCEEDED,
  ClientErrorType.TIMEOUT,
  ClientErrorType.CANCELLED,
  ClientErrorType.NOT_LEADER,
  ClientErrorType.UNKNOWN,
]);

/** Every client error mapped into the ledger's family; anything unknown becomes store_unavailable. */
export const mapClientError = (error: unknown, context: ErrorContext = {}): Error => {
  if (isLedgerError(error)) return error;
  if (error instanceof Error && isCommandError(error)) {
    const stream = ('streamName' in error && typeof error.streamName === 'string' && error.streamName) || context.stream || '';
    switch (error.type) {
      case ClientErrorType.WRONG_EXPECTED_VERSION:
        return wrongExpectedVersion(stream, expectedText(error.expectedVersion, context), actualText(error.actualVersion));
      case ClientErrorType.STREAM_DELETED:
        return streamDeleted(stream);
      case ClientErrorType.STREAM_NOT_FOUND:
        return streamNotFound(stream);
      case ClientErrorType.ACCESS_DENIED:
        return ledgerError('unauthorized', `EventStoreDB denied access: ${error.message}`, {});
      case ClientErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED:
      case ClientErrorType.INVALID_ARGUMENT:
      case ClientErrorType.MISSING_REQUIRED_METADATA_PROPERTY:
        return invalidInput(`EventStoreDB refused the request: ${error.message}`);
      default: {
        // Errors without an `exception` trailer arrive as "unknown": their gRPC status decides.
        const code = (error as { _raw?: { code?: number } })._raw?.code;
        if (code === 3) return invalidInput(`EventStoreDB refused the request: ${error.message}`);
        if (code === 7 || code === 16) return ledgerError('unauthorized', `EventStoreDB denied access: ${error.message}`, {});
        if (UNAVAILABLE.has(error.type)) return storeUnavailable(`EventStoreDB is unavailable: ${error.message}`, error.type);
        return storeUnavailable(`EventStoreDB failed: ${error.message}`, error.type);
      }
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 3 || /invalid position/i.test(message)) return invalidInput(`EventStoreDB refused the request: ${message}`);
  return storeUnavailable(`EventStoreDB is unavailable: ${message}`, typeof code === 'number' ? `grpc-${code}` : 'connection');
};

/** Runs one client call and rethrows its failure as a ledger error. */
export const mapped = async <T>(context: ErrorContext, operation: () => Promise<T>): Promise<T> => {
  try {
    return await operation();
  } catch (error) {
    throw mapClientError(error, context);
  }
};

/** INVALID_ARGUMENT from the server, as a read from a position inside a record gets. */
export const isInvalidPosition = (error: unknown): boolean => {
  const raw = (error as { _raw?: { code?: number } } | null)?._raw;
  const code = raw?.code ?? (error as { code?: unknown } | null)?.code;
  return code === 3 || (error instanceof Error && /invalid position/i.test(error.message));
};
