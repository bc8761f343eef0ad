import { hashOf, readStreamIfAny, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import type { Coverage } from '../coverage/coverage.js';
import type { PlannedStream } from './plan.js';

/**
 * The compression children started since the coverage was read: a tip's continuation named a child
 * not started then (a compression racing this deletion), and it is stored now. Each side checks the
 * other after its own write: this deletion the child after its tombstones, the compression the
 * parent after starting the child (sessions' compressSession), so one of the two deletes it and no
 * child holding the deleted conversation's summary outlives it (outside test, session 15). Each is
 * planned at revision 0: its start, which holds nothing its parent's continuation (read, and for an
 * export exported) does not. A child written to since is then refused as drift and kept
 * (partial_deletion): what was written there was never read, so it is never destroyed.
 */
export const startedSince = async (store: EventStore, coverage: Coverage): Promise<PlannedStream[]> => {
  const out: PlannedStream[] = [];
  for (const conversation of coverage.conversations) {
    const childId = conversation.loaded.pendingChildId;
    if (childId === null) continue;
    const stream = sessionStream(childId);
    let events;
    try {
      events = await readStreamIfAny(store, stream);
    } catch {
      continue; // tombstoned already (by the compression, which found the parent gone)
    }
    const start = events?.[0];
    if (start) out.push({ stream, revision: 0n, chainHead: hashOf(start) });
  }
  return out;
};
