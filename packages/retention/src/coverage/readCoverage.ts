import { hashOf, isLedgerError, withRetry, type EventStore, type RetryPolicy } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { readConversationState, type LoadedConversation } from '@session-ledger/sessions';
import type { CoveredStream, Lineage } from '../types.js';
import type { Coverage, CoveredConversation } from './coverage.js';
import { readConversationStructure } from './readStructure.js';

/** `all`: every event decoded and folded (an export); `structure`: segments and turns only (a deletion). */
export type CoverageRead = 'all' | 'structure';

const readerOf = (read: CoverageRead) => (read === 'all' ? readConversationState : readConversationStructure);

const gone = (error: unknown) => isLedgerError(error, 'not_found') || isLedgerError(error, 'session_deleted');

const covered = (loaded: LoadedConversation, lineage: Lineage, link: CoveredConversation['link'], parentId: string | null, depth: number): CoveredConversation => ({
  rootId: loaded.rootId,
  tipId: loaded.tipId,
  link,
  parentId,
  depth,
  loaded,
  segments: lineage === 'tip' ? loaded.segments.slice(-1) : loaded.segments,
});

const streamsOf = (conversation: CoveredConversation): CoveredStream[] =>
  conversation.segments.map(({ sessionId, events }) => {
    const last = events[events.length - 1]!;
    return { stream: sessionStream(sessionId), sessionId, revision: last.revision, chainHead: hashOf(last) };
  });

/**
 * Delegated children of the covered conversations, recursively; a child that is gone (or never
 * started) is skipped, and so is one whose start does not name the linking segment as its delegating
 * parent: two parents (or a parent and a plain start) raced for its id, and the refused one kept its
 * link. Followed, the link erased a conversation that was not the parent's (outside test, session 33,
 * helper-92 F5, two server processes on one file).
 */
const withDelegated = async (store: EventStore, main: CoveredConversation, read: CoverageRead): Promise<CoveredConversation[]> => {
  const out = [main];
  const seen = new Set([main.rootId]);
  for (let next = 0; next < out.length; next += 1) {
    const parent = out[next]!;
    for (const segment of parent.loaded.state.segments) {
      for (const child of segment.children) {
        if (child.link !== 'delegation' || seen.has(child.childId)) continue;
        seen.add(child.childId);
        let loaded: LoadedConversation;
        try {
          loaded = await readerOf(read)(store, child.childId);
        } catch (error) {
          if (gone(error)) continue;
          throw error;
        }
        const start = loaded.state.segments[0];
        if (loaded.rootId !== child.childId || start?.parentId !== segment.sessionId || start.link !== 'delegation') continue;
        seen.add(loaded.rootId);
        out.push(covered(loaded, 'logical', 'delegation', segment.sessionId, parent.depth + 1));
      }
    }
  }
  return out;
};

/**
 * Reads what an export or a deletion of `anyId` covers, every segment once, through the one retry
 * policy of ordinary reads (transient store errors are retried; a read that still fails throws, and
 * nothing is deleted). With `read: 'all'` (default) every event is validated on read; a deletion
 * reads `structure`, so an event it cannot decode never makes a conversation undeletable.
 */
export const readCoverage = async (
  store: EventStore,
  anyId: string,
  options: { lineage?: Lineage; retry?: RetryPolicy; read?: CoverageRead } = {},
): Promise<Coverage> => {
  const lineage = options.lineage ?? 'logical';
  const read = options.read ?? 'all';
  return withRetry(async () => {
    const main = covered(await readerOf(read)(store, anyId), lineage, null, null, 0);
    const conversations = lineage === 'tip' ? [main] : await withDelegated(store, main, read);
    return { requestedId: anyId, lineage, conversations, streams: conversations.flatMap(streamsOf) };
  }, options.retry);
};
