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
 * to this call, so the reducer mutates it directly (one mutable fold, no proxy per event).
 */
export const foldConversation = (records: Iterable<SessionRecord>): ConversationState => {
  const state = emptyConversation();
  applyAll(state, records);
  return state;
};

/**
 * Applies newer events to a state someone already holds (a live view, a cache): all of them in
 * ONE immer draft, so `base` is never changed and unchanged parts are shared.
 */
export const advanceConversation = (base: ConversationState, records: Iterable<SessionRecord>): ConversationState =>
  immer.produce(base, (draft) => {
    applyAll(draft as ConversationState, records);
  });
