import { isLedgerError, readWholeStream, type EventStore } from '@session-ledger/core';

export type StreamIds =
  | { kind: 'absent' }
  | { kind: 'present'; ids: string[]; lastRevision: bigint }
  | { kind: 'deleted' };

/** The ids a stream already holds, in revision order. */
export const readIds = async (store: EventStore, stream: string): Promise<StreamIds> => {
  try {
    const events = await readWholeStream(store, stream);
    if (events.length === 0) return { kind: 'absent' };
    return { kind: 'present', ids: events.map((event) => event.id), lastRevision: events[events.length - 1]!.revision };
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return { kind: 'absent' };
    if (isLedgerError(error, 'stream_deleted')) return { kind: 'deleted' };
    throw error;
  }
};
