import type { RecordedEvent } from './envelope.js';
import type { EventStore } from './port.js';
import { readStreamState } from './streamRead.js';

/** From which revision a stream's events are still its own; null: none are (tombstoned, soft-deleted, or gone). */
type FirstLive = bigint | null;

const firstLiveOf = async (store: EventStore, stream: string): Promise<FirstLive> => {
  if (store.streamState) {
    const state = await store.streamState(stream);
    if (!state || state.tombstoned || state.lastRevision < state.firstLive) return null;
    return state.firstLive;
  }
  // A stream read from the start begins at the first live revision (EventStoreDB: the $tb of a soft delete).
  const read = await readStreamState(store, stream, { maxCount: 1 });
  return read.state === 'live' && read.events[0] ? read.events[0].revision : null;
};

export interface LiveEventFilter {
  /** Whether the event is still its stream's: false for an event of a deleted stream, or of a soft-deleted prefix. */
  isLive(event: RecordedEvent): Promise<boolean>;
  /** The live events of a page of $all, in order. */
  keep(page: RecordedEvent[]): Promise<RecordedEvent[]>;
  /** How many events this filter has judged deleted so far. */
  deleted(): number;
}

/**
 * Tells the events of `$all` that are still their stream's from those of deleted streams. SQLite and
 * the memory store erase deleted events from `$all` at once; EventStoreDB keeps them in `$all` reads
 * and catch-up subscriptions until a scavenge, so every fold over `$all` (`audit verify`, `migrate`,
 * `sessions list`) filters with this. Each stream's state is looked up once per filter (the store's
 * `streamState` when it has one, else one read of the stream's first event) and cached: make one
 * filter per pass over `$all`.
 */
export const liveEventFilter = (store: EventStore): LiveEventFilter => {
  const cache = new Map<string, Promise<FirstLive>>();
  let deleted = 0;
  const isLive = async (event: RecordedEvent) => {
    let firstLive = cache.get(event.streamName);
    if (!firstLive) cache.set(event.streamName, (firstLive = firstLiveOf(store, event.streamName)));
    const from = await firstLive;
    const live = from !== null && event.revision >= from;
    if (!live) deleted += 1;
    return live;
  };
  return {
    isLive,
    keep: async (page) => {
      const out: RecordedEvent[] = [];
      for (const event of page) if (await isLive(event)) out.push(event);
      return out;
    },
    deleted: () => deleted,
  };
};

const PAGE = 1000;

/** Pages through `$all` in commit order, keeping only live events (a page left empty by the filter is skipped). */
export async function* readLivePages(store: EventStore, filter = liveEventFilter(store), pageSize = PAGE) {
  let cursor: bigint | 'start' = 'start';
  for (;;) {
    const page = await store.readAll({ fromPosition: cursor, maxCount: pageSize });
    const live = await filter.keep(page);
    if (live.length > 0) yield live;
    if (page.length < pageSize) return;
    cursor = page[page.length - 1]!.position + 1n;
  }
}

/** The streams with a live event in `$all`, in order of first appearance, and how many events of deleted streams `$all` still held. */
export const liveStreamNames = async (store: EventStore): Promise<{ names: string[]; deletedEvents: number }> => {
  const filter = liveEventFilter(store);
  const seen = new Set<string>();
  for await (const page of readLivePages(store, filter)) for (const event of page) seen.add(event.streamName);
  return { names: [...seen], deletedEvents: filter.deleted() };
};
