import { isLedgerError, type EventStore } from '@session-ledger/core';
import { displayView } from '@session-ledger/projections';
import { readConversationState } from '@session-ledger/sessions';
import { ledgerItem, type Side } from './items.js';

/**
 * The ledger's display view of a conversation's own segments (root to tip through the compression
 * chain; not the conversations a reset child shows above its own: their rows are another
 * conversation's); null when the ledger does not hold it.
 */
export const ledgerConversation = async (store: EventStore, rootId: string): Promise<Side | null> => {
  let view;
  let taken: Set<string>;
  try {
    const { state } = await readConversationState(store, rootId);
    view = displayView(state);
    taken = new Set(state.messages.filter((message) => message.rewound !== undefined).map((message) => message.id));
  } catch (error) {
    if (isLedgerError(error, 'not_found') || isLedgerError(error, 'stream_not_found')) return null;
    throw error;
  }
  const summaries: string[] = [];
  for (const marker of view.markers) {
    if ((marker.kind !== 'compaction' && marker.kind !== 'compression') || marker.summary === '') continue;
    // A summary its own row carries, that row taken out of the views (Hermes deleted it in a rewrite): no longer shown.
    if (taken.has(marker.summaryId)) continue;
    summaries.push(marker.summary);
  }
  return { messages: view.messages.map(ledgerItem), summaries };
};
