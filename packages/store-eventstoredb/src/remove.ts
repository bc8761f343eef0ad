import type { EventStoreDBClient } from '@eventstore/db-client';
import { conflictBackoff, defaultConflictRetry, isLedgerError, wrongExpectedVersion, type DeleteResult, type ExpectedRevision } from '@session-ledger/core';
import { mapped } from './errors.js';
import { readStream } from './readStream.js';

const currentRevision = async (client: EventStoreDBClient, stream: string): Promise<bigint | null> => {
  try {
    const [last] = await readStream(client, stream, { direction: 'backwards', maxCount: 1 });
    return last?.revision ?? null;
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return null;
    throw error;
  }
};

/**
 * Soft delete. The client (6.2.1) cannot send "stream exists" with a delete, so that
 * expectation is checked as "the revision read just before", retried under the ledger's one
 * conflict retry policy if an append slips in.
 */
export const deleteStream = async (
  client: EventStoreDBClient,
  stream: string,
  expected: ExpectedRevision,
): Promise<DeleteResult> => {
  if (expected === 'stream_exists') {
    for (let attempt = 1; ; attempt += 1) {
      const current = await currentRevision(client, stream);
      if (current === null) throw wrongExpectedVersion(stream, 'stream_exists', 'no_stream');
      try {
        return await deleteStream(client, stream, current);
      } catch (error) {
        if (!isLedgerError(error, 'wrong_expected_version') || attempt >= defaultConflictRetry.attempts) {
          throw isLedgerError(error, 'wrong_expected_version')
            ? wrongExpectedVersion(stream, 'stream_exists', error.details.actual)
            : error;
        }
        await conflictBackoff(defaultConflictRetry, attempt);
      }
    }
  }
  const result = await mapped({ stream, expected }, () => client.deleteStream(stream, { expectedRevision: expected }));
  return { position: result.position?.commit ?? null };
};

/** Hard delete: EventStoreDB refuses every later write, read and recreation of the stream. */
export const tombstoneStream = async (
  client: EventStoreDBClient,
  stream: string,
  expected: ExpectedRevision,
): Promise<DeleteResult> => {
  // The client's types omit "stream exists" for tombstones, but it sends it (and the server checks it).
  const expectedRevision = expected as Exclude<ExpectedRevision, 'stream_exists'>;
  const result = await mapped({ stream, expected }, () => client.tombstoneStream(stream, { expectedRevision }));
  return { position: result.position?.commit ?? null };
};
