import type { SessionEvent, SessionEventDataMap, SessionEventType, SessionRecord } from '@session-ledger/events';

/**
 * Given: a history of session events, written as a script. Revisions count per segment and
 * positions globally, as a store would assign them; times advance one second per event.
 */
export const history = () => {
  const revisions = new Map<string, bigint>();
  const records: SessionRecord[] = [];
  let position = 0n;
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const at = () => new Date((clock += 1000)).toISOString();
  const add = <K extends SessionEventType>(sessionId: string, type: K, data: SessionEventDataMap[K]) => {
    const revision = (revisions.get(sessionId) ?? -1n) + 1n;
    revisions.set(sessionId, revision);
    position += 1n;
    records.push({ sessionId, eventId: `${sessionId}-${revision}`, revision, position, created: at(), storedVersion: 1, type, data } as SessionRecord);
  };
  const api = {
    records,
    at,
    start(sessionId: string, extra: Partial<SessionEventDataMap['session.started']> = {}) {
      add(sessionId, 'session.started', { sessionId, rootId: sessionId, parentId: null, link: null, startedAt: at(), ...extra });
      return api;
    },
    message(sessionId: string, messageId: string, content: string, role: 'user' | 'assistant' | 'tool' | 'system' = 'user') {
      add(sessionId, 'message.appended', { messageId, role, content, timestamp: at() });
      return api;
    },
    rewrite(sessionId: string, messageId: string, content: string) {
      add(sessionId, 'message.rewritten', { messageId, content, rewrittenAt: at() });
      return api;
    },
    compactThrough(sessionId: string, throughMessageId: string, summaryId: string, summary = `summary ${summaryId}`) {
      add(sessionId, 'history.compacted', { throughMessageId, summaryId, summary, compactedAt: at() });
      return api;
    },
    compactListed(sessionId: string, messageIds: string[], summaryId: string, summary = `summary ${summaryId}`) {
      add(sessionId, 'history.compacted', { messageIds, summaryId, summary, compactedAt: at() });
      return api;
    },
    rewind(sessionId: string, messageIds: string[]) {
      add(sessionId, 'history.rewound', { messageIds, reason: 'rewound', rewoundAt: at() });
      return api;
    },
    /** `session.continued` in the parent, then the child's start (both, like the writer). */
    compress(parentId: string, childId: string, rootId: string, summary = `compressed ${parentId}`, options: { childStarts?: boolean; summaryId?: string } = {}) {
      const summaryId = options.summaryId ?? `${childId}-summary`;
      add(parentId, 'session.continued', { childId, summary, summaryId, continuedAt: at() });
      if (options.childStarts !== false) {
        add(childId, 'session.started', { sessionId: childId, rootId, parentId, link: 'compression', startedAt: at(), summary, summaryId });
      }
      return api;
    },
    /** The source deleted the compression child and went on in the segment. */
    withdraw(sessionId: string, childId: string) {
      add(sessionId, 'session.continuation_withdrawn', { childId, withdrawnAt: at() });
      return api;
    },
    delegate(parentId: string, childId: string, link: 'delegation' | 'branch' = 'delegation') {
      add(parentId, 'session.child_linked', { childId, link, linkedAt: at() });
      add(childId, 'session.started', { sessionId: childId, rootId: childId, parentId, link, startedAt: at() });
      return api;
    },
    turn(sessionId: string, turnId: string, leaseExpiresAt: string) {
      add(sessionId, 'turn.started', { turnId, owner: 'agent', leaseExpiresAt, startedAt: at() });
      return api;
    },
    endTurn(sessionId: string, turnId: string) {
      add(sessionId, 'turn.ended', { turnId, outcome: 'completed', endedAt: at() });
      return api;
    },
    end(sessionId: string) {
      add(sessionId, 'session.ended', { endedAt: at() });
      return api;
    },
    event(sessionId: string, event: SessionEvent) {
      add(sessionId, event.type, event.data as never);
      return api;
    },
  };
  return api;
};

/** The records of some segments only, in the original order (e.g. one conversation out of $all). */
export const only = (records: SessionRecord[], ...sessionIds: string[]) => records.filter((record) => sessionIds.includes(record.sessionId));
