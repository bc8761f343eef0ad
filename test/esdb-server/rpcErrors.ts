import { Metadata, status as Code, type ServerErrorResponse } from '@grpc/grpc-js';

/** A gRPC error with EventStoreDB's `exception` trailer convention. */
const rpcError = (code: Code, details: string, trailers: Record<string, string> = {}): ServerErrorResponse => {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(trailers)) metadata.set(key, value);
  return Object.assign(new Error(details), { code, details, metadata });
};

export const streamDeletedError = (stream: string) =>
  rpcError(Code.FAILED_PRECONDITION, `Event stream '${stream}' is deleted.`, {
    exception: 'stream-deleted',
    'stream-name': stream,
  });

/** Delete and tombstone conflicts; versions are ESDB numbers (-1 no stream, -2 any, -4 stream exists). */
export const wrongExpectedVersionError = (operation: string, stream: string, expected: bigint, actual: bigint) =>
  rpcError(
    Code.FAILED_PRECONDITION,
    `${operation} failed due to WrongExpectedVersion. Stream: ${stream}, Expected version: ${expected}, Actual version: ${actual}`,
    {
      exception: 'wrong-expected-version',
      'stream-name': stream,
      'expected-version': expected.toString(),
      'actual-version': actual.toString(),
    },
  );

export const invalidArgument = (details: string) => rpcError(Code.INVALID_ARGUMENT, details);

/** Streams.Append over MaxAppendSize (RpcExceptions.MaxAppendSizeExceeded). */
export const maxAppendSizeExceeded = (maxAppendSize: number) =>
  rpcError(Code.INVALID_ARGUMENT, `Maximum Append Size of ${maxAppendSize} Exceeded.`, {
    exception: 'maximum-append-size-exceeded',
    'maximum-append-size': String(maxAppendSize),
  });

export const invalidPosition = () => invalidArgument('Trying to read from an invalid position.');

export const missingMetadata = (property: string) =>
  rpcError(Code.INVALID_ARGUMENT, `Required Metadata Property '${property}' is missing`, {
    exception: 'missing-required-metadata-property',
    'required-metadata-properties': 'type,content-type',
  });

export const unavailable = (details: string) => rpcError(Code.UNAVAILABLE, details);

export const unknown = (details: string) => rpcError(Code.UNKNOWN, details);
