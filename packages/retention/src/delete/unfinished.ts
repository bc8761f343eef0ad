import { ledgerError } from '@session-ledger/core';
import { sessionIdOf } from '@session-ledger/events';
import { conversationEtag } from '@session-ledger/sessions';
import type { PendingIntent } from './intents.js';

/** A deletion of this conversation that was started (its intent recorded) and stopped part way: DELETE finishes it first. */
export interface UnfinishedDeletion {
  /** The intent record's event id in the audit stream. */
  intent: string;
  at: string;
  reason: string;
  requestedId: string;
}

/** Every stream the unfinished deletions name, once, at the revision their intents fix. */
export const unfinishedStreams = (intents: readonly PendingIntent[]): Array<{ sessionId: string; revision: bigint }> => {
  const seen = new Map<string, bigint>();
  for (const intent of intents) for (const { stream, revision } of intent.plan.streams) if (!seen.has(stream)) seen.set(stream, revision);
  return [...seen].map(([stream, revision]) => ({ sessionId: sessionIdOf(stream) ?? stream, revision }));
};

/** The ETag that fences finishing these deletions: every stream they name at its intent's revision (stable while they stay unfinished). */
export const unfinishedEtag = (intents: readonly PendingIntent[]): string => conversationEtag(unfinishedStreams(intents));

export const unfinishedOf = (intents: readonly PendingIntent[]): UnfinishedDeletion[] =>
  intents.map((intent) => ({ intent: intent.id, at: intent.at, reason: intent.reason, requestedId: intent.plan.requestedId }));

/** The strong tags of an If-Match (RFC 9110 §13.1.1: a weak `W/"…"` tag never matches). */
export const strongTags = (ifMatch: string): string[] => ifMatch.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '' && !tag.startsWith('W/'));

/**
 * Without an If-Match (or with `*`: "whatever is current"), a deletion finishes the unfinished ones
 * only when they are deletions of the conversation asked for (`conversationOf`: the root of the
 * segment asked for, or null when it cannot be read). One of another conversation (a delegated child
 * asked for, its parent's deletion unfinished; or a segment already gone) is refused, naming it:
 * `sessions delete CHILD --lineage tip` finished the parent's deletion and destroyed the parent,
 * which the request, and the prompt before it, never named (outside test, session 24).
 */
export const checkSameConversation = (intents: readonly PendingIntent[], anyId: string, conversation: string | null): void => {
  const others = intents.filter((intent) => intent.plan.rootId !== conversation);
  if (others.length === 0) return;
  const roots = [...new Set(others.map((intent) => intent.plan.rootId))];
  const streams = unfinishedStreams(intents).map(({ sessionId, revision }) => `${sessionId}@${revision}`);
  throw ledgerError(
    'precondition_failed',
    `Session ${anyId} is covered by an unfinished deletion of ${roots.join(', ')} (started ${others[0]!.at}, stopped part way) that tombstones ${streams.join(', ')}: delete ${roots[0]} to finish it, or send the ETag of GET /sessions/${anyId}/deletion (${unfinishedEtag(intents)}) in If-Match`,
    { expected: 'a deletion of this conversation', current: `unfinished deletion of ${roots.join(', ')}` },
  );
};

/**
 * A DELETE fenced by an If-Match finishes an unfinished deletion only when its If-Match names it
 * (the ETag the review gives while one is pending): the caller has then seen every stream it
 * tombstones. A tag of the conversation as it reads now does not: the unfinished deletion may cover
 * streams that tag never named (its lineage, its delegated children), and finishing it destroyed
 * them under a precondition that said otherwise (outside test, session 24). '*': whatever is current.
 */
export const checkUnfinishedIfMatch = (intents: readonly PendingIntent[], anyId: string, ifMatch: string): void => {
  if (ifMatch.trim() === '*') return;
  const current = unfinishedEtag(intents);
  if (strongTags(ifMatch).includes(current)) return;
  const streams = unfinishedStreams(intents).map(({ sessionId, revision }) => `${sessionId}@${revision}`);
  throw ledgerError(
    'precondition_failed',
    `Session ${anyId} has an unfinished deletion (started ${intents[0]!.at}, stopped part way) that tombstones ${streams.join(', ')}: review it with GET /sessions/${anyId}/deletion and send its ETag (${current}) in If-Match`,
    { expected: ifMatch, current },
  );
};
