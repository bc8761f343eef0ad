import { readStreamIfAny, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { AUDIT_STREAM } from './audit.js';

/**
 * Every record of the audit stream (none yet: empty). Read by the steps that must know what an
 * earlier run wrote: a resumed import, a deletion whose intent was recorded but not completed.
 */
export const readAuditLog = async (store: EventStore): Promise<RecordedEvent[]> => {
  return (await readStreamIfAny(store, AUDIT_STREAM)) ?? [];
};
