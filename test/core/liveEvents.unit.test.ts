import { describe, expect, it } from 'vitest';
import { createMemoryStore, liveEventFilter, liveStreamNames, readLivePages, type EventStore, type RecordedEvent } from '@session-ledger/core';

const event = (n: number) => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, type: 't', data: { n } });

/** $all as EventStoreDB keeps it: a tombstoned stream, a soft-deleted one, one soft-deleted and continued, one untouched. */
const populated = async () => {
  const store = createMemoryStore({ deletedEventsInAll: 'until-scavenge' });
  await store.appendToStream('live', [event(1), event(2)]);
  await store.appendToStream('hard', [event(3)]);
  await store.appendToStream('soft', [event(4), event(5)]);
  await store.appendToStream('continued', [event(6), event(7)]);
  await store.tombstoneStream('hard');
  await store.deleteStream('soft');
  await store.deleteStream('continued');
  await store.appendToStream('continued', [event(8)]);
  return store;
};

/** The same store seen through a port without the optional streamState, as EventStoreDB's adapter is. */
const withoutStreamState = (store: EventStore): EventStore => {
  const { streamState: _omitted, ...rest } = store;
  void _omitted;
  return { ...rest, name: store.name };
};

const ids = (events: RecordedEvent[]) => events.map((e) => Number((e.data as { n: number }).n));

describe.each([
  ['with streamState', (store: EventStore) => store],
  ['reading each stream once (no streamState)', withoutStreamState],
])('liveEventFilter (%s)', (_label, view) => {
  it('keeps the live events of $all and counts those of deleted streams and prefixes', async () => {
    const store = view(await populated());
    const filter = liveEventFilter(store);
    const all = await store.readAll();
    expect(ids(all)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ids(await filter.keep(all))).toEqual([1, 2, 8]);
    expect(filter.deleted()).toBe(5);
    expect(await liveStreamNames(store)).toEqual({ names: ['live', 'continued'], deletedEvents: 5 });
  });

  it('reads each stream state once per filter', async () => {
    const inner = view(await populated());
    const looked: string[] = [];
    const store: EventStore = {
      ...inner,
      name: inner.name,
      readStream: (stream, options) => (looked.push(stream), inner.readStream(stream, options)),
      ...(inner.streamState ? { streamState: (stream: string) => (looked.push(stream), inner.streamState!(stream)) } : {}),
    };
    const pages: number[][] = [];
    for await (const page of readLivePages(store, liveEventFilter(store), 3)) pages.push(ids(page));
    expect(pages).toEqual([[1, 2], [8]]);
    expect(looked.sort()).toEqual(['continued', 'hard', 'live', 'soft']);
  });
});

describe('the memory store with until-scavenge', () => {
  it('keeps deleted events in $all until scavenge() removes them', async () => {
    const store = await populated();
    expect(await store.scavenge()).toBe(5);
    expect(ids(await store.readAll())).toEqual([1, 2, 8]);
    expect(await store.scavenge()).toBe(0);
  });
});
