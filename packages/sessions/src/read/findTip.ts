import type { EventStore } from '@session-ledger/core';
import { decodeSessionEvent } from '@session-ledger/events';
import { readTail, segmentExists } from './segmentEvents.js';

/**
 * Follows `session.continued` from a segment down to the conversation's tip, one head read per
 * segment. `pending`: the last segment names a compression child that is not started yet.
 */
export const findTip = async (store: EventStore, sessionId: string): Promise<{ tipId: string; pending: boolean }> => {
  const seen = new Set<string>();
  for (let id = sessionId; ; ) {
    seen.add(id);
    const [head] = await readTail(store, id, 1);
    if (head?.type !== 'session.continued') return { tipId: id, pending: false };
    const record = decodeSessionEvent(head);
    const child = record.type === 'session.continued' ? record.data.childId : id;
    if (seen.has(child)) return { tipId: id, pending: false };
    if (!(await segmentExists(store, child))) return { tipId: child, pending: true };
    id = child;
  }
};
