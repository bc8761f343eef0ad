import { isJsonObject, isLedgerError, type EventStore } from '@session-ledger/core';
import { activeView, displayView, foldConversation, type ActiveView, type Marker } from '@session-ledger/projections';
import { readConversationState } from '@session-ledger/sessions';
import { sessionStart } from '../ledger/sessionStart.js';
import { ledgerItem, type ComparedItem, type Side } from './items.js';

/** The role of the summary row a segment's start carries (import metadata), `user` as Hermes writes it when none is recorded. */
const summaryRole = async (store: EventStore, segment: string): Promise<string> => {
  const hermes = (await sessionStart(store, segment))?.metadata.hermes;
  const row = isJsonObject(hermes) ? hermes.summaryRow : undefined;
  return isJsonObject(row) && typeof row.role === 'string' ? row.role : 'user';
};

/**
 * The ledger's display view of a conversation's own segments (root to tip through the compression
 * chain; not the conversations a reset child shows above its own: their rows are another
 * conversation's); null when the ledger does not hold it. `segments`: the sessions the source's
 * conversation has. A segment whose parent Hermes deleted (it then lists the segment as a
 * conversation of its own) is one the ledger still shows after the parent it keeps: only the
 * source's segments are compared, and the orphaned segment's summary as the first message it is in
 * the file (`source`), while the file still has it.
 */
export const ledgerConversation = async (store: EventStore, rootId: string, segments?: ReadonlySet<string>, source?: Side): Promise<Side | null> => {
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
  const own = (segment: string) => segments === undefined || segments.has(segment);
  const summaries: string[] = [];
  const orphaned: ComparedItem[] = [];
  const relevant = view.markers.filter(
    (marker): marker is Extract<Marker, { kind: 'compaction' | 'compression' }> =>
      (marker.kind === 'compaction' || marker.kind === 'compression') && marker.summary !== '' && own(marker.sessionId) && (marker.kind === 'compaction' || own(marker.childId)),
  );
  for (const marker of view.markers) {
    if (marker.kind !== 'compression' || own(marker.sessionId) || !own(marker.childId)) continue;
    // A summary row that is a message too (recognised by its text), or that a rewrite in Hermes inserted
    // again (the import appended it as a message), is among the segment's messages already.
    const carried = (message: (typeof view.messages)[number]) =>
      message.id === marker.summaryId || (own(message.sessionId) && typeof message.content === 'string' && message.content.trim() === marker.summary.trim());
    if (view.messages.some(carried)) continue;
    // Hermes took the summary row back (`/undo` past it): the file's segment no longer starts with it,
    // while the ledger keeps it in the segment's start, as it keeps the parent (outside test, session 30, F2).
    const first = source?.messages[0];
    if (source !== undefined && (typeof first?.content !== 'string' || first.content.trim() !== marker.summary.trim())) continue;
    orphaned.push({ role: await summaryRole(store, marker.childId), content: marker.summary, toolCalls: null, toolCallId: null, toolName: null });
  }
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
  return { messages: [...orphaned, ...view.messages.filter((message) => own(message.sessionId)).map(ledgerItem)], summaries };
};

/**
 * The source's segments of a conversation whose first segment the ledger holds as a compression
 * continuation (Hermes deleted its parent, the ledger keeps it); undefined for any other. Hermes
 * shows such a conversation from that segment on.
 */
export const orphanedSegments = async (store: EventStore, rootId: string, segments: ReadonlySet<string> | undefined): Promise<ReadonlySet<string> | undefined> => {
  if (segments === undefined) return undefined;
  const start = await sessionStart(store, rootId);
  const data = start?.type === 'session.started' && isJsonObject(start.data) ? start.data : undefined;
  return data !== undefined && typeof data.parentId === 'string' && data.link === 'compression' ? segments : undefined;
};

/**
 * The ledger's active view of a conversation as its source segments leave it, when the ledger goes
 * on past them: Hermes deleted the compression child the source's last segment continued in (the
 * file keeps that segment ended by the compression and resumes it; the ledger keeps the child and
 * resumes there). Folded from the source's segments alone, that continuation left out. Undefined
 * when the ledger's conversation ends where the source's does.
 */
export const activeOfSourceSegments = async (store: EventStore, rootId: string, segments: ReadonlySet<string> | undefined): Promise<ActiveView | undefined> => {
  if (segments === undefined) return undefined;
  const { records } = await readConversationState(store, rootId);
  const past = (record: (typeof records)[number]) => record.type === 'session.continued' && !segments.has(record.data.childId);
  if (!records.some((record) => segments.has(record.sessionId) && past(record))) return undefined;
  return activeView(foldConversation(records.filter((record) => segments.has(record.sessionId) && !past(record))));
};
