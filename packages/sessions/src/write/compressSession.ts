import { deterministicId, isLedgerError, newId } from '@session-ledger/core';
import { checkNewId, checkSafeId, type SessionContinued } from '@session-ledger/events';
import { nowOf, type Conditional, type WriterContext } from '../context.js';
import { sessionSealed } from '../errors.js';
import { childStreamOf } from '../read/childStream.js';
import { loadSegment, runSegment } from './runSegment.js';
import { handedOver, startChild } from './startChild.js';
import { dropOrphanedChild, unlessParentDeleted } from './parentDeleted.js';

export interface CompressInput extends Conditional {
  /** What replaces the parent's history in the child's context. */
  summary: string;
  /** Caller-given (a retry with it is a no-op) or a new UUID. */
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
  /** false: the compression was stored already (a retry); nothing was stored. */
  written: boolean;
}

/**
 * Compression: first `session.continued { childId, summary }` in the parent (a decided write: it
 * seals the parent, so of two racing compressions exactly one is stored: the other is refused with
 * session_sealed naming the tip, unless it is the same compression (the same child id, or no child
 * id and the same summary: a retry), which is a no-op), THEN the child's `session.started`. A child
 * id taken by another stream (another session, a deleted one, the parent itself) is refused before
 * anything is written. A crash between the two writes leaves the parent as the readable tip;
 * compressing it again completes that same child first, and then answers as for any compression of
 * a sealed segment (a no-op for the same one, else sealed). A stored continuation whose child can
 * never be started (its id was taken after the check) is superseded by a compression into a fresh
 * child (decided in decide/segmentDecider.ts). A deletion racing the compression never leaves the
 * child behind: after starting it, the parent is read again; a deletion that finds it not started
 * fences its id, so it never starts (retention's startedSince.ts); and an orphan left all the same (a
 * deletion killed before its fence, then this run killed before its read) is deleted when the
 * compression is run again with the same child id (parentDeleted.ts).
 */
export const compressSession = async (context: WriterContext, sessionId: string, input: CompressInput): Promise<CompressResult> => {
  const { store } = context.ledger;
  const before = await loadSegment(context.ledger, checkSafeId(sessionId, 'sessionId')).catch(async (error: unknown) => {
    // The same compression run again after its parent's deletion: a child it started before it was killed goes too.
    if (isLedgerError(error, 'session_deleted') && input.childId !== undefined) await dropOrphanedChild(store, sessionId, checkSafeId(input.childId, 'childId'));
    throw error;
  });
  const stored = before.state.continued;
  const pending = stored ? { childId: stored.childId, stream: await childStreamOf(store, sessionId, stored.childId) } : undefined;
  if (stored && pending?.stream === 'free') {
    const child = await startChild(context.ledger, sessionId, stored, handedOver(before.state.turn), nowOf(context).toISOString());
    await unlessParentDeleted(store, sessionId, stored.childId);
    // Repaired either way; another compression than the stored one is refused, never silently merged into it.
    const same = input.childId !== undefined ? input.childId === stored.childId : input.summary === stored.summary;
    if (!same) throw sessionSealed(sessionId, stored.childId);
    // Completing a stored compression (its run killed, or racing its own write): this call made none.
    return { sessionId: stored.childId, rootId: child.rootId, parentId: sessionId, parentRevision: before.revision, revision: child.revision, written: false };
  }
  const childId = checkNewId(input.childId ?? newId(), 'childId');
  const child = childId === pending?.childId ? pending.stream : await childStreamOf(store, sessionId, childId);
  const continued: SessionContinued = {
    childId,
    summary: input.summary,
    summaryId: deterministicId(childId, 'summary'),
    continuedAt: nowOf(context).toISOString(),
  };
  const eventId = deterministicId(sessionId, 'session.continued', childId);
  const command = { kind: 'continue', sessionId, eventId, continued, childGiven: input.childId !== undefined, child, pending } as const;
  const parent = await runSegment(context.ledger, command, input.expectedRevision);
  const next = parent.reply.continued!;
  const started = await startChild(context.ledger, sessionId, next, handedOver(parent.state.turn), nowOf(context).toISOString()).catch(async (error: unknown) => {
    // A deletion of the parent between the two writes fences the child (retention's startedSince.ts): the conversation is deleted.
    if (isLedgerError(error, 'session_deleted')) await unlessParentDeleted(store, sessionId, next.childId);
    throw error;
  });
  await unlessParentDeleted(store, sessionId, next.childId);
  // Written: this call stored the compression (its continuation). Another call racing it may start
  // the child first; both answered 201 on two server processes (outside test, session 33, helper-92 F3).
  return { sessionId: next.childId, rootId: started.rootId, parentId: sessionId, parentRevision: parent.revision, revision: started.revision, written: parent.written };
};
