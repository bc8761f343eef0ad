import { isLedgerError, readWholeStream, sessionStream, type EventStore } from '@session-ledger/core';
import { decodeSessionEvents, type SessionRecord } from '@session-ledger/events';
import { displayView, foldConversation } from '@session-ledger/projections';
import { ledgerItem, type Side } from './items.js';

/**
 * The ledger's display view of a conversation, read the way a reader of the ledger would: the
 * root stream, then each compression child its `session.continued` names.
 */
export const ledgerConversation = async (store: EventStore, rootId: string): Promise<Side | null> => {
  const records: SessionRecord[] = [];
  const seen = new Set<string>();
  let next: string | null = rootId;
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    let segment: SessionRecord[];
    try {
      segment = decodeSessionEvents(await readWholeStream(store, sessionStream(next)));
    } catch (error) {
      if (next !== rootId && isLedgerError(error, 'stream_not_found')) break;
      if (isLedgerError(error, 'stream_not_found')) return null;
      throw error;
    }
    records.push(...segment);
    const continued = segment.find((record) => record.type === 'session.continued');
    next = continued?.type === 'session.continued' ? continued.data.childId : null;
  }
  const view = displayView(foldConversation(records));
  const summaries: string[] = [];
  for (const marker of view.markers) {
    if ((marker.kind === 'compaction' || marker.kind === 'compression') && marker.summary !== '') summaries.push(marker.summary);
  }
  return { messages: view.messages.map(ledgerItem), summaries };
};
