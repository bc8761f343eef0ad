import { isLedgerError, type EventStore } from '@session-ledger/core';
import { displayView, type Marker } from '@session-ledger/projections';
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
  const relevant = view.markers.filter(
    (marker): marker is Extract<Marker, { kind: 'compaction' | 'compression' }> => (marker.kind === 'compaction' || marker.kind === 'compression') && marker.summary !== '',
  );
  const archived = new Set(view.messages.filter((message) => message.compacted).map((message) => message.id));
  const claimed = new Set(relevant.filter((marker) => !taken.has(marker.summaryId)).map((marker) => marker.summaryId));
  for (const marker of relevant) {
    // A compaction's summary written as a message of its own that a later compaction archived is, in
    // the file, one more archived row the plan cannot tell from the rows before it: it counts as the
    // message it is (outside test, session 28, F4). A compression segment's summary row stays one.
    if (marker.kind === 'compaction' && archived.has(marker.summaryId)) continue;
    if (!taken.has(marker.summaryId)) {
      summaries.push(marker.summary);
      continue;
    }
    // Its own row was taken out (Hermes deleted it in a rewrite): shown only if the row Hermes inserted
    // again (same text) carries it now, as a message of the segment no other summary names.
    const segment = marker.kind === 'compression' ? marker.childId : marker.sessionId;
    const carrier = view.messages.find(
      (message) => message.sessionId === segment && !claimed.has(message.id) && typeof message.content === 'string' && message.content.trim() === marker.summary.trim(),
    );
    if (carrier === undefined || (marker.kind === 'compaction' && carrier.compacted)) continue;
    claimed.add(carrier.id);
    summaries.push(carrier.content as string);
  }
  return { messages: view.messages.map(ledgerItem), summaries };
};
