import { deterministicId, invalidInput, isLedgerError, ledgerError, newId, sessionStream, type JsonObject } from '@session-ledger/core';
import { checkSafeId, encodeSessionEvent, type ChildLink, type SessionEventDataMap } from '@session-ledger/events';
import { nowOf, type WriterContext } from '../context.js';
import { sessionDeleted } from '../errors.js';
import { findTip } from '../read/findTip.js';
import { readStart, segmentExists } from '../read/segmentEvents.js';
import { appendToSegment } from './appendToSegment.js';

export interface StartSessionInput {
  /** Caller-given (a safe id: letters, digits, `_`, `-`, `.`, `:`) or a new UUID. Give one to make a retry idempotent. */
  id?: string;
  /** A delegated or branched child: the conversation it starts from (any of its ids; the link is written in its tip). */
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
  /** false: the session existed already with the same parent (a retried start). */
  created: boolean;
}

type Started = SessionEventDataMap['session.started'];

/**
 * Writes a segment's first event; a retry of the same start is a no-op (`created: false`, told by
 * reading first, so it holds on backends that cannot tell a retry), another session with that id is `duplicate`.
 */
export const writeStart = async (context: WriterContext, data: Started): Promise<{ revision: bigint; created: boolean }> => {
  const event = { id: deterministicId(data.sessionId, 'session.started'), ...encodeSessionEvent({ type: 'session.started', data }) };
  if (!(await segmentExists(context.ledger.store, data.sessionId))) {
    try {
      const result = await context.ledger.append(sessionStream(data.sessionId), [event], { expectedRevision: 'no_stream' });
      if (result.written !== false) return { revision: result.nextExpectedRevision, created: true };
    } catch (error) {
      if (isLedgerError(error, 'stream_deleted')) throw sessionDeleted(data.sessionId);
      if (!isLedgerError(error, 'wrong_expected_version')) throw error;
    }
  }
  const existing = await readStart(context.ledger.store, data.sessionId);
  if (existing.data.parentId !== data.parentId || existing.data.link !== data.link) {
    throw ledgerError('duplicate', `Session ${data.sessionId} already exists`, { what: `session ${data.sessionId}` });
  }
  return { revision: 0n, created: false };
};

const checkLink = (input: StartSessionInput): ChildLink | null => {
  if ((input.link as string | undefined) === 'compression') throw invalidInput('A compression child is made by compressSession', 'link');
  if ((input.parentId === undefined) !== (input.link === undefined)) throw invalidInput('parentId and link go together', 'link');
  if (input.link !== undefined && input.link !== 'delegation' && input.link !== 'branch') {
    throw invalidInput(`link must be delegation or branch: ${String(input.link)}`, 'link');
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
  const sessionId = checkSafeId(input.id ?? newId(), 'id');
  const at = nowOf(context).toISOString();
  const optional = { model: input.model, source: input.source, title: input.title, extra: input.extra };
  let parentId: string | null = null;
  if (link !== null) {
    const store = context.ledger.store;
    const { tipId, pending } = await findTip(store, checkSafeId(input.parentId, 'parentId'));
    if (pending) throw invalidInput(`Parent ${input.parentId} has an unfinished compression into ${tipId}: run compress again first`, 'parentId');
    parentId = tipId;
    if (input.id !== undefined && (await segmentExists(store, sessionId))) {
      const existing = await readStart(store, sessionId);
      if (existing.data.link !== link || (existing.data.parentId !== tipId && existing.data.parentId !== input.parentId)) {
        throw ledgerError('duplicate', `Session ${sessionId} already exists`, { what: `session ${sessionId}` });
      }
      return { sessionId, rootId: sessionId, parentId: existing.data.parentId, revision: 0n, created: false };
    }
    await appendToSegment(context.ledger, tipId, {}, () => [
      { id: deterministicId(tipId, 'session.child_linked', sessionId), type: 'session.child_linked', data: { childId: sessionId, link, linkedAt: at } },
    ]);
  }
  const data: Started = { sessionId, rootId: sessionId, parentId, link, startedAt: at };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(data, { [key]: value });
  const { revision, created } = await writeStart(context, data);
  return { sessionId, rootId: sessionId, parentId, revision, created };
};
