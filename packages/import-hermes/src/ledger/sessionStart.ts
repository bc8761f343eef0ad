import { isLedgerError, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';

/** A session stream's first event (its start); null when the ledger does not hold the session (never written, or deleted). Any other failure is thrown. */
export const sessionStart = async (store: EventStore, sessionId: string): Promise<RecordedEvent | null> => {
  try {
    const [first] = await store.readStream(sessionStream(sessionId), { maxCount: 1 });
    return first ?? null;
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found') || isLedgerError(error, 'stream_deleted')) return null;
    throw error;
  }
};
