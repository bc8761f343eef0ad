import { isJsonObject, type RecordedEvent } from '@session-ledger/core';
import { SESSION_PREFIX, sessionIdOf } from '@session-ledger/events';
import { readConversationEvents } from '@session-ledger/sessions';
import { resumeFrom, streamSse } from '../sse.js';
import type { RequestContext } from '../types.js';

/**
 * One conversation's events as Server-Sent Events, history then live, resumable with Last-Event-ID.
 * The set of segments grows as the conversation is compressed into new children.
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
  const subscription = store.subscribeToAll({ fromPosition: resumeFrom(req, query), filter: { streamNamePrefixes: [SESSION_PREFIX] } });
  await streamSse(req, res, subscription, accept);
};
