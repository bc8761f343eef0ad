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
 * planned at the revision it holds now.
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
    const last = events?.[events.length - 1];
    if (last) out.push({ stream, revision: last.revision, chainHead: hashOf(last) });
  }
  return out;
};
