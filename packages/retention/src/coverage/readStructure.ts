import type { EventStore } from '@session-ledger/core';
import { decodeSessionEvent, type SessionEventType, type SessionRecord } from '@session-ledger/events';
import { foldConversation } from '@session-ledger/projections';
import { readConversationEvents, type LoadedConversation } from '@session-ledger/sessions';

/**
 * What a deletion needs of a conversation: its segments and their links (starts, continuations,
 * child links) and its turns (the live-lease guard). Messages, rewrites and compactions are not
 * needed, so they are not decoded.
 */
export const STRUCTURE_TYPES: ReadonlySet<string> = new Set<SessionEventType>([
  'session.started',
  'session.continued',
  'session.continuation_withdrawn',
  'session.child_linked',
  'turn.started',
  'turn.lease_renewed',
  'turn.ended',
]);

/**
 * Reads a conversation by any id for a deletion: every segment's events (their revisions are what
 * the tombstones are conditional on), decoding only the structure and turn events. A conversation
 * holding an event this version cannot decode (a foreign type, a newer schema, a malformed
 * message) can still be deleted; one whose structure or turns do not decode still refuses (the
 * lease guard cannot be decided without them). `records` and `state` hold the structure only.
 */
export const readConversationStructure = async (store: EventStore, anyId: string): Promise<LoadedConversation> => {
  const events = await readConversationEvents(store, anyId);
  const records: SessionRecord[] = [];
  for (const segment of events.segments) {
    for (const event of segment.events) if (STRUCTURE_TYPES.has(event.type)) records.push(decodeSessionEvent(event));
  }
  return { ...events, records, state: foldConversation(records) };
};
