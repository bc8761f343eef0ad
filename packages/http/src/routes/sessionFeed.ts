import { isJsonObject, nextTurn, type EventStore, type RecordedEvent, type Subscription, type SubscriptionItem } from '@session-ledger/core';
import { SESSION_PREFIX, sessionIdOf } from '@session-ledger/events';
import { readConversationEvents } from '@session-ledger/sessions';
import { AUDIT_STREAM, DELETION_EVENT } from '@session-ledger/retention';
import { resumeFrom, streamSse } from '../sse.js';
import type { RequestContext } from '../types.js';

/** Events of history sent between two turns of the event loop (the other requests' turn). */
const HISTORY_TURN = 500;

/** The highest commit position stored, or null for an empty store. */
const lastPosition = async (store: EventStore): Promise<bigint | null> =>
  (await store.readAll({ direction: 'backwards', fromPosition: 'end', maxCount: 1 }))[0]?.position ?? null;

/** `history` (already read), then the `live` subscription; closing it closes both. */
const historyThen = (history: RecordedEvent[], live: Subscription): Subscription => {
  async function* run(): AsyncGenerator<SubscriptionItem> {
    for (let at = 0; at < history.length; at += 1) {
      if (at > 0 && at % HISTORY_TURN === 0) await nextTurn();
      yield { kind: 'event', event: history[at]! };
    }
    yield* live;
  }
  const iterator = run();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      await live.close();
      await iterator.return(undefined);
    },
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
 * first; the segments, read after it, give the events up to it, and the live part follows every
 * stream after it, so nothing written meanwhile is missed or sent twice.
 */
export const sessionFeed = async ({ store, params, query, req, res }: RequestContext<{ after?: bigint; type?: string[] }>): Promise<void> => {
  const from = resumeFrom(req, query);
  const head = await lastPosition(store);
  const { segments } = await readConversationEvents(store, params.id!);
  const members = new Set(segments.map((segment) => segment.sessionId));
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
  const events = segments.flatMap((segment) => segment.events);
  // A store whose stream reads carry no commit position (-1) is followed from the resume point over every stream.
  if (head === null || events.some((event) => event.position < 0n)) {
    await streamSse(req, res, store.subscribeToAll({ fromPosition: from, filter }), accept, ends);
    return;
  }
  const history = events
    .filter((event) => event.position <= head && (from === 'start' || event.position > from))
    .sort((a, b) => (a.position < b.position ? -1 : 1));
  const liveFrom = from !== 'start' && from > head ? from : head;
  await streamSse(req, res, historyThen(history, store.subscribeToAll({ fromPosition: liveFrom, filter })), accept, ends);
};
