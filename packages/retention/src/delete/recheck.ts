import { hashOf, isLedgerError, withRetry, type EventStore, type LedgerError, type RetryPolicy } from '@session-ledger/core';
import type { Coverage } from '../coverage/coverage.js';
import { driftError } from '../errors.js';

const currentRevision = async (store: EventStore, stream: string): Promise<string> => {
  const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  return last ? last.revision.toString() : 'none';
};

/**
 * The re-read before deletion, stream by stream through the retrying reads: the event at the
 * exported revision must still be the last one and carry the exported chain hash. Each event's
 * hash covers its id, type, data and metadata and its predecessor's hash, so an equal head means
 * every event of the stream is the one exported: the view is identical, whatever the message count.
 */
export const headsDrift = (store: EventStore, coverage: Coverage, retry?: RetryPolicy): Promise<LedgerError | null> =>
  withRetry(async () => {
    for (const stream of coverage.streams) {
      const exported = stream.revision.toString();
      let events;
      try {
        events = await store.readStream(stream.stream, { fromRevision: stream.revision, maxCount: 2 });
      } catch (error) {
        if (isLedgerError(error, 'stream_deleted') || isLedgerError(error, 'stream_not_found')) {
          return driftError(stream.stream, exported, 'deleted', 'the stream is gone');
        }
        throw error;
      }
      const head = events[0];
      if (!head || head.revision !== stream.revision || hashOf(head) !== stream.chainHead) {
        return driftError(stream.stream, exported, await currentRevision(store, stream.stream), 'the stream no longer holds the exported events');
      }
      if (events.length > 1) return driftError(stream.stream, exported, await currentRevision(store, stream.stream), 'events were appended');
    }
    return null;
  }, retry);
