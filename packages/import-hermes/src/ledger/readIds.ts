import { hashOf, isLedgerError, readWholeStream, type ChainHead, type EventStore, type RecordedEvent } from '@session-ledger/core';

export type StreamIds =
  | { kind: 'absent' }
  | { kind: 'present'; ids: string[]; lastRevision: bigint; head: ChainHead; events: RecordedEvent[] }
  | { kind: 'deleted' };

/** The ids a stream already holds, in revision order. */
export const readIds = async (store: EventStore, stream: string): Promise<StreamIds> => {
  try {
    const events = await readWholeStream(store, stream);
    if (events.length === 0) return { kind: 'absent' };
    const last = events[events.length - 1]!;
    return { kind: 'present', ids: events.map((event) => event.id), lastRevision: last.revision, head: { revision: last.revision, hash: hashOf(last) }, events };
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return { kind: 'absent' };
    if (isLedgerError(error, 'stream_deleted')) return { kind: 'deleted' };
    throw error;
  }
};
