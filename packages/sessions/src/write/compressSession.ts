import { deterministicId } from '@session-ledger/core';
import { checkSafeId, type OpenTurn, type SessionContinued, type SessionEventDataMap } from '@session-ledger/events';
import { nowOf, type Conditional, type WriterContext } from '../context.js';
import { sessionEnded, sessionSealed } from '../errors.js';
import { findTip } from '../read/findTip.js';
import { readStart, segmentExists } from '../read/segmentEvents.js';
import { readSegmentTail, type SegmentTail } from '../read/segmentTail.js';
import { appendToSegment } from './appendToSegment.js';
import { writeStart } from './startSession.js';

export interface CompressInput extends Conditional {
  /** What replaces the parent's history in the child's context. */
  summary: string;
  /** Default: deterministic from (parent, parent revision), so a retry after a crash names the same child. */
  childId?: string;
}

export interface CompressResult {
  /** The new tip: write here from now on. */
  sessionId: string;
  /** The id that resumes the whole conversation. */
  rootId: string;
  parentId: string;
  /** The parent's revision after `session.continued`. */
  parentRevision: bigint;
  /** The child's revision (0: its start). */
  revision: bigint;
  /** false: the child existed already (a retry); nothing was stored. */
  written: boolean;
}

const openTurnOf = (tail: SegmentTail): OpenTurn | null =>
  tail.turn && !tail.turn.ended ? { turnId: tail.turn.turnId, owner: tail.turn.owner, leaseExpiresAt: tail.turn.leaseExpiresAt } : null;

/** The child's start, entirely determined by the parent's start, its `continued` and its open turn. */
const startChild = async (context: WriterContext, parentId: string, continued: SessionContinued, openTurn: OpenTurn | null) => {
  const parent = await readStart(context.ledger.store, parentId);
  const data: SessionEventDataMap['session.started'] = {
    sessionId: continued.childId,
    rootId: parent.data.rootId,
    parentId,
    link: 'compression',
    startedAt: nowOf(context).toISOString(),
    summary: continued.summary,
    summaryId: continued.summaryId,
    openTurn,
  };
  if (parent.data.model !== undefined) data.model = parent.data.model;
  if (parent.data.source !== undefined) data.source = parent.data.source;
  const { revision, created } = await writeStart(context, data);
  return { rootId: parent.data.rootId, revision, created };
};

/**
 * Compression: first `session.continued { childId, summary }` in the parent (conditional; it seals
 * the parent), THEN the child's `session.started { parentId, link: 'compression', summary }`. A crash
 * between the two leaves the parent as the readable tip; calling compress again on the parent
 * completes the same child (its id and summary come from the stored `continued`).
 */
export const compressSession = async (context: WriterContext, sessionId: string, input: CompressInput): Promise<CompressResult> => {
  const store = context.ledger.store;
  const tail = await readSegmentTail(store, checkSafeId(sessionId, 'sessionId'), { turns: true });
  if (tail.ended) throw sessionEnded(sessionId);
  if (tail.continued) {
    const { childId } = tail.continued;
    const retry = input.expectedRevision !== undefined && input.expectedRevision < tail.revision;
    if (await segmentExists(store, childId)) {
      if (!retry || (input.childId !== undefined && input.childId !== childId)) throw sessionSealed(sessionId, (await findTip(store, childId)).tipId);
      const child = await readStart(store, childId);
      return { sessionId: childId, rootId: child.data.rootId, parentId: sessionId, parentRevision: tail.revision, revision: 0n, written: false };
    }
    const child = await startChild(context, sessionId, tail.continued, openTurnOf(tail));
    return { sessionId: childId, rootId: child.rootId, parentId: sessionId, parentRevision: tail.revision, revision: child.revision, written: child.created };
  }
  const expected = input.expectedRevision ?? tail.revision;
  const childId = checkSafeId(input.childId ?? deterministicId(sessionId, 'compression', expected), 'childId');
  const continued: SessionContinued = {
    childId,
    summary: input.summary,
    summaryId: deterministicId(childId, 'summary'),
    continuedAt: nowOf(context).toISOString(),
  };
  const parent = await appendToSegment(context.ledger, sessionId, { expectedRevision: expected, tail }, () => [
    { id: deterministicId(sessionId, 'session.continued', childId), type: 'session.continued', data: continued },
  ]);
  const child = await startChild(context, sessionId, continued, openTurnOf(tail));
  return { sessionId: childId, rootId: child.rootId, parentId: sessionId, parentRevision: parent.revision, revision: child.revision, written: child.created };
};
