import { isLedgerError, memoryStream, readWholeStream, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { decodeMemoryEvents } from '@session-ledger/events';
import { foldMemoryEntries, type MemoryEntriesView } from '@session-ledger/projections';

export interface MemoryState extends MemoryEntriesView {
  profile: string;
  /** The stream revision the entries reflect; null when the stream does not exist. */
  revision: bigint | null;
  /** Commit position of the last event; null when none. */
  position: bigint | null;
}

/** Reads a profile's stream and projects its entries, with the revision they were read at. */
export const readMemoryState = async (store: EventStore, profile: string): Promise<MemoryState> => {
  let events: RecordedEvent[];
  try {
    events = await readWholeStream(store, memoryStream(profile));
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return { profile, entries: [], revision: null, position: null };
    throw error;
  }
  const last = events[events.length - 1];
  return {
    profile,
    ...foldMemoryEntries(decodeMemoryEvents(events)),
    revision: last?.revision ?? null,
    position: last?.position ?? null,
  };
};
