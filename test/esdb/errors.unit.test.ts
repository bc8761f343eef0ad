import { Metadata, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { convertToCommandError, StreamDeletedError, WrongExpectedVersionError } from '@eventstore/db-client';
import { mapClientError } from '@session-ledger/store-eventstoredb';

const serviceError = (code: number, details: string, trailers: Record<string, string> = {}) => {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(trailers)) metadata.set(key, value);
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata });
};

/** The client's own conversion of a gRPC failure, then the adapter's mapping. */
const mapped = (error: ReturnType<typeof serviceError>, context = {}) => mapClientError(convertToCommandError(error), context);

describe('client errors as ledger errors', () => {
  it('maps conflicts with ESDB numeric versions to the port revisions', () => {
    const error = mapped(
      serviceError(status.FAILED_PRECONDITION, 'Delete failed', {
        exception: 'wrong-expected-version',
        'stream-name': 's',
        'expected-version': '-4',
        'actual-version': '-1',
      }),
    );
    expect(error).toMatchObject({ type: 'wrong_expected_version', details: { stream: 's', expected: 'stream_exists', actual: 'no_stream' } });
    const appended = mapClientError(new WrongExpectedVersionError(undefined as never, { streamName: 's', expected: 3n, current: 5n } as never));
    expect(appended).toMatchObject({ details: { expected: '3', actual: '5' } });
  });

  it('maps deleted and missing streams, with the stream name', () => {
    expect(mapped(serviceError(status.FAILED_PRECONDITION, 'deleted', { exception: 'stream-deleted', 'stream-name': 'gone' }))).toMatchObject({
      type: 'stream_deleted',
      details: { stream: 'gone' },
    });
    expect(mapClientError(StreamDeletedError.fromStreamName('x'))).toMatchObject({ type: 'stream_deleted', details: { stream: 'x' } });
  });

  it.each([
    [status.UNAVAILABLE, 'store_unavailable'],
    [status.DEADLINE_EXCEEDED, 'store_unavailable'],
    [status.ABORTED, 'store_unavailable'],
    [status.INVALID_ARGUMENT, 'invalid_input'],
    [status.PERMISSION_DENIED, 'unauthorized'],
    [status.UNAUTHENTICATED, 'unauthorized'],
  ])('maps gRPC status %i to %s', (code, type) => {
    expect(mapped(serviceError(code, 'failure'))).toMatchObject({ type });
  });

  it('maps anything else, such as a failed discovery, to store_unavailable', () => {
    expect(mapClientError(new Error('Failed to discover after 10 attempts.'))).toMatchObject({ type: 'store_unavailable' });
  });
});
