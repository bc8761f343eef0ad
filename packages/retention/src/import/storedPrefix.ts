import { canonicalJson, isLedgerError, ledgerError, readWholeStream, streamDeleted, type EventStore, type RecordedEvent } from '@session-ledger/core';

export const alreadyThere = (stream: string, why = 'already exists in this store') =>
  ledgerError('duplicate', `Stream ${stream} ${why}: import restores streams only into a store that lacks them (or finishes its own earlier run)`, {
    what: `stream ${stream}`,
  });

/** The same stored event: id, type, revision, data and metadata (the chain included). */
const sameEvent = (stored: RecordedEvent, wanted: RecordedEvent): boolean =>
  stored.revision === wanted.revision &&
  stored.id === wanted.id &&
  stored.type === wanted.type &&
  canonicalJson(stored.data) === canonicalJson(wanted.data) &&
  canonicalJson(stored.metadata) === canonicalJson(wanted.metadata);

const storedEvents = async (store: EventStore, stream: string): Promise<RecordedEvent[]> => {
  if (store.streamState) {
    const state = await store.streamState(stream);
    if (state === null) return [];
    if (state.tombstoned) throw streamDeleted(stream);
  }
  try {
    return await readWholeStream(store, stream);
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) {
      // soft-deleted: the numbering goes on, so the file's revisions can never be restored there
      if (store.streamState) throw alreadyThere(stream, 'was deleted (soft) in this store');
      return [];
    }
    throw error;
  }
};

/**
 * How many of a stream's events an earlier run of this import already stored: the stream must be
 * absent or hold exactly the first N events of the file (same ids and content at the same
 * revisions). A stream holding anything else is `duplicate`, a tombstoned one `stream_deleted`.
 */
export const storedPrefix = async (store: EventStore, stream: string, wanted: RecordedEvent[]): Promise<number> => {
  const stored = await storedEvents(store, stream);
  if (stored.length > wanted.length) throw alreadyThere(stream, 'holds more events than the file');
  stored.forEach((event, index) => {
    if (!sameEvent(event, wanted[index]!)) throw alreadyThere(stream, `holds a different event at revision ${event.revision}`);
  });
  return stored.length;
};
