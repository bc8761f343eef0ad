import type { EventStore } from '@session-ledger/core';
import { decodeSessionEvent } from '@session-ledger/events';
import { childStreamOf } from './childStream.js';
import { readTail } from './segmentEvents.js';

/** Where a conversation takes its next write. */
export interface FoundTip {
  tipId: string;
  /** The last segment names a compression child that is not started: `tipId` is that child. */
  pending: boolean;
  /**
   * The last segment (`tipId`) names a compression child whose id is taken by another stream (live
   * or deleted), so it can never be started: compress `tipId` again into a fresh child.
   */
  takenChildId?: string;
  /** With pending and no takenChildId: the sealed segment whose compression names `tipId`. */
  parentId?: string;
}

/**
 * Follows `session.continued` from a segment down to the conversation's tip, one head read and one
 * first-event read per segment (a segment's last continuation is the one in force).
 */
export const findTip = async (store: EventStore, sessionId: string): Promise<FoundTip> => {
  const seen = new Set<string>();
  for (let id = sessionId; ; ) {
    seen.add(id);
    const [head] = await readTail(store, id, 1);
    if (head?.type !== 'session.continued') return { tipId: id, pending: false };
    const record = decodeSessionEvent(head);
    const child = record.type === 'session.continued' ? record.data.childId : id;
    const stream = seen.has(child) ? 'taken' : await childStreamOf(store, id, child);
    if (stream === 'free') return { tipId: child, pending: true, parentId: id };
    if (stream !== 'ours') return { tipId: id, pending: true, takenChildId: child };
    id = child;
  }
};
