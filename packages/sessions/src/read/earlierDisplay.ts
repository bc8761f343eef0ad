import { isLedgerError, type EventStore } from '@session-ledger/core';
import { decodeSessionEvent, type SessionRecord } from '@session-ledger/events';
import { afterReset, displayView, foldConversation, type ConversationState, type DisplayView } from '@session-ledger/projections';
import { readConversationEvents } from './readConversation.js';

/** How many resets back a display reaches: a thread reset more often shows its newest 32 conversations. */
const MAX_RESETS = 32;

type Reset = { parentId: string };

const resetOf = (state: ConversationState): Reset | null => {
  const root = state.segments[0];
  return root?.link === 'reset' && root.parentId !== null ? { parentId: root.parentId } : null;
};

/** The conversation holding `parentId`, folded root to that segment; null when it is gone (deleted, never written). */
const readUpTo = async (store: EventStore, parentId: string): Promise<ConversationState | null> => {
  let read;
  try {
    read = await readConversationEvents(store, parentId);
  } catch (error) {
    if (isLedgerError(error, 'not_found') || isLedgerError(error, 'session_deleted')) return null;
    throw error;
  }
  const records: SessionRecord[] = [];
  for (const segment of read.segments) {
    for (const event of segment.events) records.push(decodeSessionEvent(event));
    if (segment.sessionId === parentId) break;
  }
  return foldConversation(records);
};

/**
 * A conversation's display view; for one started by a reset, the conversations it reset come first
 * (afterReset), each up to the segment its successor names, as far back as they still exist.
 */
export const displayWithEarlier = async (store: EventStore, state: ConversationState): Promise<DisplayView> => {
  let view = displayView(state);
  const seen = new Set<string>([state.rootId ?? '']);
  for (let reset = resetOf(state), steps = 0; reset !== null && steps < MAX_RESETS; steps += 1) {
    const earlier = await readUpTo(store, reset.parentId);
    if (earlier === null || seen.has(earlier.rootId ?? '')) break;
    seen.add(earlier.rootId ?? '');
    view = afterReset(displayView(earlier), view);
    reset = resetOf(earlier);
  }
  return view;
};
