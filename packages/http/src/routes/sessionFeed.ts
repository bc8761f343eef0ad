import { isJsonObject, type EventStore, type RecordedEvent, type Subscription, type SubscriptionItem } from '@session-ledger/core';
import { SESSION_PREFIX, sessionIdOf, sessionStream } from '@session-ledger/events';
import { readConversationEvents } from '@session-ledger/sessions';
import { AUDIT_STREAM, DELETION_EVENT } from '@session-ledger/retention';
import { resumeFrom, streamSse } from '../sse.js';
import type { RequestContext } from '../types.js';

/** The highest commit position stored, or null for an empty store. */
const lastPosition = async (store: EventStore): Promise<bigint | null> =>
  (await store.readAll({ direction: 'backwards', fromPosition: 'end', maxCount: 1 }))[0]?.position ?? null;

/** One segment's history, a catch-up page at a time: `next` is its first event not yet sent, null once it has none up to `head`. */
interface SegmentCursor {
  subscription: Subscription;
  iterator: AsyncIterator<SubscriptionItem>;
  next: RecordedEvent | null;
}

const advance = async (cursor: SegmentCursor, head: bigint): Promise<void> => {
  try {
    for (;;) {
      const item = await cursor.iterator.next();
      if (item.done || item.value.kind === 'caught_up') break;
      if (item.value.kind === 'event' && item.value.event.position <= head) {
        cursor.next = item.value.event;
        return;
      }
      if (item.value.kind === 'event') break; // past the head: the live part sends it
    }
  } catch {
    // The segment was deleted since it was found: its events are gone, and the live part sees the deletion.
  }
  cursor.next = null;
  await cursor.subscription.close();
};

/**
 * The events of `streams` up to `head`, in commit order: each stream is read through its own
 * catch-up subscription (a page, at most 500 events and 1 MiB of stored text, at a time), so a
 * client that does not read holds one page per segment, never the whole conversation.
 */
async function* historyOf(store: EventStore, streams: string[], head: bigint): AsyncGenerator<SubscriptionItem> {
  const cursors: SegmentCursor[] = streams.map((name) => {
    const subscription = store.subscribeToStream(name);
    return { subscription, iterator: subscription[Symbol.asyncIterator](), next: null };
  });
  try {
    for (const cursor of cursors) await advance(cursor, head);
    for (;;) {
      let first: SegmentCursor | null = null;
      for (const cursor of cursors) if (cursor.next && (!first || cursor.next.position < first.next!.position)) first = cursor;
      if (!first) return;
      yield { kind: 'event', event: first.next! };
      await advance(first, head);
    }
  } finally {
    await Promise.all(cursors.map((cursor) => cursor.subscription.close()));
  }
}

/** `history`, then the `live` subscription; closing it closes both. */
const historyThen = (history: AsyncGenerator<SubscriptionItem>, live: Subscription): Subscription => {
  async function* run(): AsyncGenerator<SubscriptionItem> {
    yield* history;
    yield* live;
  }
  const iterator = run();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      await live.close();
      await history.return(undefined);
      await iterator.return(undefined);
    },
  };
};

/**
 * The conversation's segments, root to tip, and whether the store's stream reads lack commit
 * positions (-1): then the feed follows every stream from the resume point instead. Only the ids are
 * kept: the events read to find them are not held while the feed is sent.
 */
const segmentsOf = async (store: EventStore, id: string): Promise<{ sessionIds: string[]; unpositioned: boolean }> => {
  const { segments } = await readConversationEvents(store, id);
  return {
    sessionIds: segments.map((segment) => segment.sessionId),
    unpositioned: segments.some((segment) => segment.events.some((event) => event.position < 0n)),
  };
};

/**
 * One conversation's events as Server-Sent Events, history then live, resumable with Last-Event-ID.
 * The set of segments grows as the conversation is compressed into new children. The feed ends
 * with an error frame `{type: 'session_deleted'}` once the conversation is deleted.
 *
 * History comes from the conversation's own segments, not from a scan of every stream: a feed of
 * one conversation costs that conversation, not the store (outside test, session 19: a feed on a
 * 320,000-event store held the server 2.5 s, answering nobody). The store's last position is taken
 * first; the segments, found after it, are read a page at a time up to it, and the live part follows
 * every stream after it, so nothing written meanwhile is missed or sent twice.
 */
export const sessionFeed = async ({ store, params, query, req, res }: RequestContext<{ after?: bigint; type?: string[] }>): Promise<void> => {
  const from = resumeFrom(req, query);
  const head = await lastPosition(store);
  const { sessionIds, unpositioned } = await segmentsOf(store, params.id!);
  const members = new Set(sessionIds);
  const types = new Set(query.type ?? []);
  const accept = (event: RecordedEvent): boolean => {
    const sessionId = sessionIdOf(event.streamName);
    if (sessionId === null) return false;
    if (event.type === 'session.started' && isJsonObject(event.data)) {
      const { parentId, link } = event.data;
      if (link === 'compression' && typeof parentId === 'string' && members.has(parentId)) members.add(sessionId);
    }
    return members.has(sessionId) && (types.size === 0 || types.has(event.type));
  };
  // A deletion's outcome record (retention's audit stream) takes the segments it deleted out of the
  // feed; once none is left the conversation is deleted and the feed ends (a client left open on it
  // would wait for events that never come; its reconnect is answered 410). Deleting only the tip
  // (`lineage=tip`) leaves the conversation, and the feed, going on.
  const ends = (event: RecordedEvent) => {
    if (event.streamName !== AUDIT_STREAM || event.type !== DELETION_EVENT || !isJsonObject(event.data)) return null;
    const { deleted } = event.data;
    if (!Array.isArray(deleted)) return null;
    for (const stream of deleted) if (typeof stream === 'string') members.delete(sessionIdOf(stream) ?? '');
    return members.size === 0 ? { type: 'session_deleted', message: `Session ${params.id!} was deleted (at position ${event.position})` } : null;
  };
  const filter = { streamNamePrefixes: [SESSION_PREFIX, AUDIT_STREAM] };
  if (head === null || unpositioned) {
    await streamSse(req, res, store.subscribeToAll({ fromPosition: from, filter }), accept, ends);
    return;
  }
  const liveFrom = from !== 'start' && from > head ? from : head;
  const history = historyOf(store, [...members].map(sessionStream), head);
  const resumed = from === 'start' ? history : afterPosition(history, from);
  await streamSse(req, res, historyThen(resumed, store.subscribeToAll({ fromPosition: liveFrom, filter })), accept, ends);
};

/** The items of `history` whose events follow `from` (a resume point). */
async function* afterPosition(history: AsyncGenerator<SubscriptionItem>, from: bigint): AsyncGenerator<SubscriptionItem> {
  try {
    for await (const item of history) if (item.kind !== 'event' || item.event.position > from) yield item;
  } finally {
    await history.return(undefined);
  }
}
