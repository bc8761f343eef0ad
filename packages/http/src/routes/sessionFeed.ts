import { isJsonObject, type RecordedEvent } from '@session-ledger/core';
import { SESSION_PREFIX, sessionIdOf } from '@session-ledger/events';
import { readConversationEvents } from '@session-ledger/sessions';
import { AUDIT_STREAM, DELETION_EVENT } from '@session-ledger/retention';
import { resumeFrom, streamSse } from '../sse.js';
import type { RequestContext } from '../types.js';

/**
 * One conversation's events as Server-Sent Events, history then live, resumable with Last-Event-ID.
 * The set of segments grows as the conversation is compressed into new children. The feed ends
 * with an error frame `{type: 'session_deleted'}` once the conversation is deleted.
 */
export const sessionFeed = async ({ store, params, query, req, res }: RequestContext<{ after?: bigint; type?: string[] }>): Promise<void> => {
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
  const subscription = store.subscribeToAll({ fromPosition: resumeFrom(req, query), filter: { streamNamePrefixes: [SESSION_PREFIX, AUDIT_STREAM] } });
  await streamSse(req, res, subscription, accept, ends);
};
