import { deterministicId, type Ledger } from '@session-ledger/core';
import { sessionStream, type OpenTurn, type SessionContinued, type SessionEventDataMap } from '@session-ledger/events';
import type { LatestTurn } from '@session-ledger/projections';
import { segmentDecider } from '../decide/segmentDecider.js';
import { asSessionError } from '../errors.js';
import { readStart } from '../read/segmentEvents.js';

/** A turn still open when the segment is sealed carries over into the child. */
export const handedOver = (turn: LatestTurn | null): OpenTurn | null =>
  turn && !turn.ended ? { turnId: turn.turnId, owner: turn.owner, leaseExpiresAt: turn.leaseExpiresAt } : null;

/**
 * A compression child's start, entirely determined by the parent's start, its `continued` and its
 * open turn (the decider takes a start that differs only in `startedAt` for a retry): whoever writes
 * it, the compressing run or a writer finishing it (finishCompression.ts), a second one is a no-op.
 */
export const startChild = async (ledger: Ledger, parentId: string, continued: SessionContinued, openTurn: OpenTurn | null, startedAt: string) => {
  const parent = await readStart(ledger.store, parentId);
  const data: SessionEventDataMap['session.started'] = {
    sessionId: continued.childId,
    rootId: parent.data.rootId,
    parentId,
    link: 'compression',
    startedAt,
    summary: continued.summary,
    summaryId: continued.summaryId,
    openTurn,
  };
  if (parent.data.model !== undefined) data.model = parent.data.model;
  if (parent.data.source !== undefined) data.source = parent.data.source;
  const command = { kind: 'start', sessionId: data.sessionId, eventId: deterministicId(data.sessionId, 'session.started'), data } as const;
  try {
    const handled = await ledger.handle(segmentDecider, sessionStream(data.sessionId), command, {});
    return { rootId: parent.data.rootId, revision: handled.revision, created: handled.written };
  } catch (error) {
    throw asSessionError(error, data.sessionId);
  }
};
