import { readStreamIfAny, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { decodeMemoryEvents, memoryStream } from '@session-ledger/events';
import { foldMemoryEntries, type MemoryEntriesView } from '@session-ledger/projections';

export interface MemoryState extends MemoryEntriesView {
  profile: string;
  /** The stream revision the entries reflect; null when the stream does not exist. */
  revision: bigint | null;
  /** Commit position of the last event; null when none. */
  position: bigint | null;
  /** Id of the event at `revision`: lets a later read continue from here safely. */
  lastEventId: string | null;
}

const PAGE = 1000;

/** Events from `from` on (inclusive); null when the stream does not exist (or is soft-deleted). */
const readFrom = async (store: EventStore, stream: string, from: bigint | 'start'): Promise<RecordedEvent[] | null> => {
  const out: RecordedEvent[] = [];
  for (let cursor = from; ; ) {
    const page = await readStreamIfAny(store, stream, { fromRevision: cursor, maxCount: PAGE });
    if (page === null) return null;
    out.push(...page);
    if (page.length < PAGE) return out;
    cursor = page[page.length - 1]!.revision + 1n;
  }
};

const stateOf = (profile: string, base: MemoryEntriesView, events: RecordedEvent[], previous: MemoryState | null): MemoryState => {
  const last = events[events.length - 1];
  return {
    profile,
    ...foldMemoryEntries(decodeMemoryEvents(events), base),
    revision: last?.revision ?? previous?.revision ?? null,
    position: last?.position ?? previous?.position ?? null,
    lastEventId: last?.id ?? previous?.lastEventId ?? null,
  };
};

/**
 * Reads a profile's stream and projects its entries, with the revision they were read at. Given a
 * state read earlier, it reads only the events after it, provided the event it ended on is still
 * there (after a delete it reads everything again).
 */
export const readMemoryState = async (store: EventStore, profile: string, earlier?: MemoryState): Promise<MemoryState> => {
  const stream = memoryStream(profile);
  if (earlier?.revision != null && earlier.profile === profile) {
    const tail = await readFrom(store, stream, earlier.revision);
    if (tail && tail[0]?.revision === earlier.revision && tail[0].id === earlier.lastEventId) {
      return stateOf(profile, earlier, tail.slice(1), earlier);
    }
  }
  const events = await readFrom(store, stream, 'start');
  if (events === null) return { profile, entries: [], revision: null, position: null, lastEventId: null };
  return stateOf(profile, { entries: [] }, events, null);
};
