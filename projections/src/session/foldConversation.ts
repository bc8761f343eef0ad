import { enableMapSet, Immer } from 'immer';
import type { SessionRecord } from '@session-ledger/events';
import { applySessionEvent } from './applySessionEvent.js';
import { emptyConversation, type ConversationState } from './state.js';

enableMapSet();

/** Freezing off: deep-freezing a 100k-message result would cost more than folding it. */
const immer = new Immer({ autoFreeze: false });

const applyAll = (state: ConversationState, records: Iterable<SessionRecord>): void => {
  for (const record of records) applySessionEvent(state, record);
};

/**
 * Folds a whole history (root segment first) into a conversation state. A fresh state is private
 * to this call, so the reducer mutates it directly (one mutable fold, no proxy per event). Given
 * an array, the message index is sized once for that many events.
 */
export const foldConversation = (records: Iterable<SessionRecord>): ConversationState => {
  const state = emptyConversation(Array.isArray(records) ? records.length : 0);
  applyAll(state, records);
  return state;
};

/**
 * Applies newer events to a state someone already holds (a live view, a cache): all of them in
 * ONE immer draft, so `base` is never changed and unchanged parts are shared. The message index
 * is not drafted by immer (see MessageIndex): the draft files new messages in its own copy.
 */
export const advanceConversation = (base: ConversationState, records: Iterable<SessionRecord>): ConversationState => {
  const list = Array.isArray(records) ? (records as SessionRecord[]) : [...records];
  const files = list.some((record) => record.type === 'message.appended');
  return immer.produce(base, (draft) => {
    if (files) draft.messageIndex = base.messageIndex.copy();
    applyAll(draft as ConversationState, list);
  });
};
