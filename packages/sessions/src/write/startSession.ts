import { deterministicId, invalidInput, ledgerError, newId, type JsonObject } from '@session-ledger/core';
import { CHILD_LINKS, checkNewId, checkSafeId, type ChildLink, type SessionEventDataMap } from '@session-ledger/events';
import { nowOf, type WriterContext } from '../context.js';
import { findTip } from '../read/findTip.js';
import { loadSegment, runSegment } from './runSegment.js';
import { unlessParentDeleted } from './parentDeleted.js';

export interface StartSessionInput {
  /** Caller-given (a safe id: letters, digits, `_`, `-`, `.`, `:`) or a new UUID. Give one to make a retry idempotent. */
  id?: string;
  /**
   * A delegated, branched or reset child: the conversation it starts from (any of its ids; the link
   * is written in its tip). A reset child's display shows that conversation above its own messages.
   */
  parentId?: string;
  link?: ChildLink;
  model?: string;
  source?: string;
  title?: string;
  extra?: JsonObject;
}

export interface StartSessionResult {
  sessionId: string;
  /** The id that resumes the whole conversation (a delegated child is its own root). */
  rootId: string;
  /** For a child: the segment the link was written in. */
  parentId: string | null;
  revision: bigint;
  /** false: the session existed already with the same settings (a retried start); other settings are `duplicate`. */
  created: boolean;
}

type Started = SessionEventDataMap['session.started'];

/**
 * Writes a segment's first event; a retry of the same start is a no-op (`created: false`); the same
 * id with other settings is `duplicate` (decided in decide/segmentDecider.ts).
 */
export const writeStart = async (context: WriterContext, data: Started): Promise<{ revision: bigint; created: boolean }> => {
  const command = { kind: 'start', sessionId: data.sessionId, eventId: deterministicId(data.sessionId, 'session.started'), data } as const;
  const handled = await runSegment(context.ledger, command);
  return { revision: handled.revision, created: handled.written };
};

const checkLink = (input: StartSessionInput): ChildLink | null => {
  if ((input.link as string | undefined) === 'compression') throw invalidInput('A compression child is made by compressSession', 'link');
  if ((input.parentId === undefined) !== (input.link === undefined)) throw invalidInput('parentId and link go together', 'link');
  if (input.link !== undefined && !(CHILD_LINKS as readonly string[]).includes(input.link)) {
    throw invalidInput(`link must be one of ${CHILD_LINKS.join(', ')}: ${String(input.link)}`, 'link');
  }
  return input.link ?? null;
};

/**
 * Starts a conversation. For a delegated or branched child, `session.child_linked` is written in
 * the parent's tip first, then the child's `session.started`: a crash between the two leaves the
 * link, and a retry with the same child id completes it.
 */
export const startSession = async (context: WriterContext, input: StartSessionInput = {}): Promise<StartSessionResult> => {
  const link = checkLink(input);
  const sessionId = checkNewId(input.id ?? newId(), 'id');
  const at = nowOf(context).toISOString();
  const optional = { model: input.model, source: input.source, title: input.title, extra: input.extra };
  let parentId: string | null = null;
  if (link !== null) {
    const { tipId, pending, takenChildId } = await findTip(context.ledger.store, checkSafeId(input.parentId, 'parentId'));
    if (pending) throw invalidInput(`Parent ${input.parentId} has an unfinished compression into ${takenChildId ?? tipId}: run compress again first`, 'parentId');
    parentId = tipId;
    // A retried start of a child whose parent was compressed since: the child names the parent it was linked from.
    const existing = input.id === undefined ? null : (await loadSegment(context.ledger, sessionId)).state.started;
    if (existing) {
      if (existing.link !== link || (existing.parentId !== tipId && existing.parentId !== input.parentId)) {
        throw ledgerError('duplicate', `Session ${sessionId} already exists`, { what: `session ${sessionId}` });
      }
      parentId = existing.parentId;
    } else {
      const linked = { kind: 'link_child', sessionId: tipId, eventId: deterministicId(tipId, 'session.child_linked', sessionId), childId: sessionId, link, at } as const;
      await runSegment(context.ledger, linked);
    }
  }
  const data: Started = { sessionId, rootId: sessionId, parentId, link, startedAt: at };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(data, { [key]: value });
  const { revision, created } = await writeStart(context, data);
  // A delegated child goes with its parent's deletion: one that read the parent between the link and
  // this start fences or deletes the child after its tombstones, and here the parent gone takes the
  // start back (as for a compression child: write/parentDeleted.ts; outside test, session 24).
  if (link === 'delegation' && parentId !== null) await unlessParentDeleted(context.ledger.store, parentId, sessionId);
  return { sessionId, rootId: sessionId, parentId, revision, created };
};
