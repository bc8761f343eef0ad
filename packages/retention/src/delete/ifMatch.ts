import { ledgerError, type Ledger } from '@session-ledger/core';
import { conversationEtag, loadConversation, viewEtag } from '@session-ledger/sessions';
import type { Coverage } from '../coverage/coverage.js';
import { deletionEtag } from './review.js';
import { strongTags } from './unfinished.js';

/** The ETag of the conversation asked for, as `GET /sessions/:id` gives it. */
export const etagOf = (coverage: Coverage): string =>
  conversationEtag(coverage.conversations[0]!.loaded.segments.map(({ sessionId, events }) => ({ sessionId, revision: events[events.length - 1]!.revision })));

/**
 * A conversation started by a reset shows the conversations it reset above its own, and
 * `GET /sessions/:id` names their segments too: that ETag is taken as well (it includes every
 * segment this deletion covers at the revision read, so drift in them still fails the tombstones).
 */
const displayEtagOf = async (ledger: Ledger, coverage: Coverage): Promise<string | null> => {
  const root = coverage.conversations[0]!.loaded.segments[0]?.events[0];
  if (root?.type !== 'session.started' || (root.data as { link?: unknown }).link !== 'reset') return null;
  return viewEtag(await loadConversation(ledger.store, coverage.conversations[0]!.rootId, { view: 'display' }));
};

const refused = (ifMatch: string, current: string, message: string) => ledgerError('precondition_failed', message, { expected: ifMatch, current });

/**
 * An If-Match fences a deletion only when it names every stream the deletion tombstones, at the
 * revision read now. The review's ETag (reviewDeletion) always does. A view's ETag (GET
 * /sessions/:id) does only while the deletion covers nothing but that view's segments: with
 * delegated children it names none of theirs, so a write to a child since the view was read would be
 * destroyed unseen (outside test, session 16); it is then refused, pointing at the review. Compared
 * strongly (RFC 9110 §13.1.1): a weak tag (`W/"…"`) never matches. '*': whatever is current.
 */
export const checkIfMatch = async (ledger: Ledger, coverage: Coverage, anyId: string, ifMatch: string): Promise<void> => {
  if (ifMatch.trim() === '*') return;
  const given = strongTags(ifMatch);
  const current = deletionEtag(coverage);
  if (given.length === 0) {
    throw refused(ifMatch, current, `If-Match ${ifMatch} names only weak tags, which never match (RFC 9110 compares If-Match strongly): send the ETag as GET /sessions/${anyId}/deletion gave it`);
  }
  if (given.includes(current)) return;
  const view = etagOf(coverage);
  const viewTags = [view, (await displayEtagOf(ledger, coverage)) ?? view];
  if (!given.some((tag) => viewTags.includes(tag))) {
    throw refused(ifMatch, current, `Session ${anyId} changed since it was read (If-Match ${ifMatch}, current ${current})`);
  }
  const children = coverage.conversations.length - 1;
  if (children > 0) {
    throw refused(
      ifMatch,
      current,
      `Session ${anyId}'s deletion also tombstones ${children} delegated conversation(s) that the view's ETag ${view} does not name: review them with GET /sessions/${anyId}/deletion and send its ETag (${current}) in If-Match`,
    );
  }
};
