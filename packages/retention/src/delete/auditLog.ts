import { AUDIT_STREAM, isLedgerError, readWholeStream, type EventStore, type RecordedEvent } from '@session-ledger/core';

/**
 * Every record of the audit stream (none yet: empty). Read by the steps that must know what an
 * earlier run wrote: a resumed import, a deletion whose intent was recorded but not completed.
 */
export const readAuditLog = async (store: EventStore): Promise<RecordedEvent[]> => {
  try {
    return await readWholeStream(store, AUDIT_STREAM);
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return [];
    throw error;
  }
};
