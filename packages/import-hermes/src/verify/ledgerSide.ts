import { isLedgerError, type EventStore } from '@session-ledger/core';
import { loadConversation } from '@session-ledger/sessions';
import { ledgerItem, type Side } from './items.js';

/**
 * The ledger's display view of a conversation, loaded the way every reader of the ledger resumes it
 * (root to tip through the compression chain); null when the ledger does not hold it.
 */
export const ledgerConversation = async (store: EventStore, rootId: string): Promise<Side | null> => {
  let view;
  try {
    view = await loadConversation(store, rootId, { view: 'display' });
  } catch (error) {
    if (isLedgerError(error, 'not_found') || isLedgerError(error, 'stream_not_found')) return null;
    throw error;
  }
  const summaries: string[] = [];
  for (const marker of view.markers) {
    if ((marker.kind === 'compaction' || marker.kind === 'compression') && marker.summary !== '') summaries.push(marker.summary);
  }
  return { messages: view.messages.map(ledgerItem), summaries };
};
