import { isLedgerError, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { checkSafeId, decodeSessionEvent, type SessionRecordOf } from '@session-ledger/events';
import { readSegment, readStart, readTail } from './segmentEvents.js';

export interface SegmentEvents {
  sessionId: string;
  events: RecordedEvent[];
}

/** Every stored event of one logical conversation, segment by segment from root to tip. */
export interface ConversationEvents {
  rootId: string;
  tipId: string;
  segments: SegmentEvents[];
  /** The tip names a compression child that is not started (a crash between the two writes). */
  pendingChildId: string | null;
}

const gone = (error: unknown) => isLedgerError(error, 'not_found') || isLedgerError(error, 'session_deleted');

const startOf = (events: RecordedEvent[]): SessionRecordOf<'session.started'> | null => {
  const first = events[0];
  if (first?.type !== 'session.started' || first.revision !== 0n) return null;
  const record = decodeSessionEvent(first);
  return record.type === 'session.started' ? record : null;
};

const childNamedBy = (events: RecordedEvent[]): string | null => {
  const last = events[events.length - 1];
  if (last?.type !== 'session.continued') return null;
  const record = decodeSessionEvent(last);
  return record.type === 'session.continued' ? record.data.childId : null;
};

/** From `topId` down through `continued` pointers; each segment is read once. A missing child ends the walk. */
const walkDown = async (store: EventStore, topId: string): Promise<{ segments: SegmentEvents[]; pendingChildId: string | null }> => {
  const segments: SegmentEvents[] = [];
  const seen = new Set<string>();
  let parentId: string | null = null;
  for (let id: string | null = topId; id !== null && !seen.has(id); ) {
    let events: RecordedEvent[];
    try {
      events = await readSegment(store, id);
    } catch (error) {
      if (segments.length > 0 && gone(error)) return { segments, pendingChildId: id };
      throw error;
    }
    const start = startOf(events);
    if (parentId !== null && (start?.data.parentId !== parentId || start.data.link !== 'compression')) break;
    seen.add(id);
    segments.push({ sessionId: id, events });
    parentId = id;
    id = childNamedBy(events);
  }
  return { segments, pendingChildId: null };
};

/**
 * Parent pointers up (one first event per segment, and the parent's last) while the link is a
 * compression, the parent exists and its continuation still names the segment (not withdrawn).
 */
const walkUp = async (store: EventStore, fromId: string): Promise<string> => {
  const seen = new Set<string>([fromId]);
  let id = fromId;
  for (;;) {
    const start = await readStart(store, id);
    const parent = start.data.link === 'compression' ? start.data.parentId : null;
    if (parent === null || seen.has(parent)) return id;
    try {
      if (childNamedBy(await readTail(store, parent, 1)) !== id) return id;
    } catch (error) {
      if (gone(error)) return id;
      throw error;
    }
    seen.add(parent);
    id = parent;
  }
};

/**
 * Reads a conversation given ANY of its segment ids (root, middle or tip): the segment's start names
 * the root, then the chain is read root to tip, each segment once. If the root is gone or the chain
 * does not reach the given id, parent pointers are walked up instead.
 */
export const readConversationEvents = async (store: EventStore, anyId: string): Promise<ConversationEvents> => {
  const start = await readStart(store, checkSafeId(anyId, 'sessionId'));
  const rootId = start.data.link === 'compression' ? start.data.rootId : anyId;
  let walked = await walkDown(store, rootId).catch((error: unknown) => {
    if (rootId !== anyId && gone(error)) return null;
    throw error;
  });
  if (!walked?.segments.some((segment) => segment.sessionId === anyId)) walked = await walkDown(store, await walkUp(store, anyId));
  const { segments, pendingChildId } = walked;
  return { rootId: segments[0]!.sessionId, tipId: segments[segments.length - 1]!.sessionId, segments, pendingChildId };
};
