import { hashOf, isJsonObject, isLedgerError, readStreamIfAny, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import type { Coverage } from '../coverage/coverage.js';
import type { PlannedStream } from './plan.js';

/**
 * A pending child not started yet is fenced: its id is tombstoned at no stream, so the compression
 * racing this deletion can never start it (its start is refused, and it answers session_deleted)
 * even when that compression is killed before it reads its parent again (outside test, session 16:
 * such a child outlived the deletion unless the compression was run again with its id). Nothing
 * was stored under it, so the fence erases nothing and the outcome does not list it. A child started
 * meanwhile (the fence refused) is read again. null: nothing left to delete there.
 */
const startOrFence = async (store: EventStore, stream: string): Promise<RecordedEvent | null> => {
  // Twice at most: a fence refused because the child started is read again; a stream that neither reads nor fences (soft-deleted) holds nothing to delete.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let events;
    try {
      events = await readStreamIfAny(store, stream);
    } catch {
      return null; // tombstoned already (by the compression, which found the parent gone, or fenced)
    }
    if (events?.[0]) return events[0];
    try {
      await store.tombstoneStream(stream, { expectedRevision: 'no_stream' });
      return null;
    } catch (error) {
      if (isLedgerError(error, 'stream_deleted')) return null;
      if (!isLedgerError(error, 'wrong_expected_version')) throw error;
    }
  }
  return null;
};

/**
 * The compression children (and delegated ones: delegatedUnread) started since the coverage was read: a tip's continuation named a child
 * not started then (a compression racing this deletion), and it is stored now. Each side checks the
 * other after its own write: this deletion the child after its tombstones (one not started yet is
 * fenced: startOrFence), the compression the parent after starting the child (sessions'
 * compressSession), so one of the two deletes it and no child holding the deleted conversation's
 * summary outlives it (outside test, session 15). Each is planned at revision 0: its start, which
 * holds nothing its parent's continuation (read, and for an export exported) does not. A child
 * written to since is then refused as drift and kept (partial_deletion): what was written there was
 * never read, so it is never destroyed.
 */
export const startedSince = async (store: EventStore, coverage: Coverage): Promise<PlannedStream[]> => {
  const out: PlannedStream[] = [];
  const pending = coverage.conversations.flatMap(({ loaded }): Linked[] => (loaded.pendingChildId === null ? [] : [{ childId: loaded.pendingChildId, parentId: loaded.tipId, link: 'compression' }]));
  for (const { childId, parentId, link } of [...pending, ...delegatedUnread(coverage)]) {
    const stream = sessionStream(childId);
    const start = await startOrFence(store, stream);
    if (start && startedFrom(start, parentId, link)) out.push({ stream, revision: 0n, chainHead: hashOf(start) });
  }
  return out;
};

/** A child id linked from a covered segment (`parentId`), and how. */
interface Linked {
  childId: string;
  parentId: string;
  link: 'compression' | 'delegation';
}

/**
 * Whether the child's start names the linking segment, as that link says: another start may have
 * taken the id (two parents, or a parent and a plain start, raced for it), and the refused parent kept
 * its link; that conversation is not this one's to delete (outside test, session 33, helper-92 F5).
 */
const startedFrom = (start: RecordedEvent, parentId: string, link: Linked['link']): boolean =>
  isJsonObject(start.data) && start.data.parentId === parentId && start.data.link === link;

/**
 * Delegated children linked in a covered segment whose start the coverage did not read: a
 * startSession racing this deletion, between its link and its start. Delegated children go with
 * their conversation, and such a child outlived it, started and writable (outside test, session 24:
 * 1 in 250 racing HTTP rounds); it is fenced or deleted here like a compression child, and the start
 * re-reads its parent (sessions' startSession). Branch and reset children are conversations of their
 * own and are never deleted with their parent.
 */
const delegatedUnread = (coverage: Coverage): Linked[] => {
  // lineage tip deletes the tip segment alone, never its delegated children (readCoverage)
  if (coverage.lineage === 'tip') return [];
  const read = new Set(coverage.conversations.map((conversation) => conversation.rootId));
  return coverage.conversations.flatMap((conversation) => {
    const covered = new Set(conversation.segments.map((segment) => segment.sessionId));
    return conversation.loaded.state.segments
      .filter((segment) => covered.has(segment.sessionId))
      .flatMap((segment) =>
        segment.children
          .filter((child) => child.link === 'delegation' && !read.has(child.childId))
          .map((child): Linked => ({ childId: child.childId, parentId: segment.sessionId, link: 'delegation' })),
      );
  });
};
