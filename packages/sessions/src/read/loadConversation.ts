import { invalidInput, type EventStore } from '@session-ledger/core';
import { decodeSessionEvent, type SessionRecord } from '@session-ledger/events';
import {
  activeView,
  foldConversation,
  rawView,
  type ActiveView,
  type ConversationState,
  type DisplayView,
  type RawEvent,
} from '@session-ledger/projections';
import { displayWithEarlier } from './earlierDisplay.js';
import { readConversationEvents, type ConversationEvents } from './readConversation.js';

/** A conversation's events validated and upcast (root segment first), and their fold. */
export interface LoadedConversation extends ConversationEvents {
  records: SessionRecord[];
  state: ConversationState;
}

/** Reads by any id, validates every event on read (unsupported_version for a newer schema) and folds. */
export const readConversationState = async (store: EventStore, anyId: string): Promise<LoadedConversation> => {
  const events = await readConversationEvents(store, anyId);
  const records: SessionRecord[] = [];
  for (const segment of events.segments) for (const event of segment.events) records.push(decodeSessionEvent(event));
  return { ...events, records, state: foldConversation(records) };
};

/** The raw view of a conversation: every stored event as stored, root segment first, never validated. */
export interface RawConversationView {
  rootId: string;
  tipId: string;
  segments: Array<{ sessionId: string; revision: bigint }>;
  events: RawEvent[];
}

export type ViewName = 'display' | 'active' | 'raw';

export interface ViewOf {
  display: DisplayView;
  active: ActiveView;
  raw: RawConversationView;
}

export const VIEW_NAMES: readonly ViewName[] = ['display', 'active', 'raw'];

/** For surfaces: a view name from the command line or a query string, or invalid_input naming the choices. */
export const checkViewName = (text: string): ViewName => {
  if (!(VIEW_NAMES as readonly string[]).includes(text)) throw invalidInput(`Unknown view ${JSON.stringify(text)}: use ${VIEW_NAMES.join(', ')}`, 'view');
  return text as ViewName;
};

/**
 * Resume by any id: the same whole logical conversation whether `anyId` is its root, a middle
 * segment or its tip. `display` (default): root to tip, compacted originals marked (after the
 * conversations it reset, for a reset child); `active`: what the model sees next; `raw`: every stored event. Print it with `viewToJson`.
 */
export const loadConversation = async <V extends ViewName = 'display'>(
  store: EventStore,
  anyId: string,
  options: { view?: V } = {},
): Promise<ViewOf[V]> => {
  const view = (options.view ?? 'display') as ViewName;
  if (view === 'raw') {
    const { rootId, tipId, segments } = await readConversationEvents(store, anyId);
    const revisions = segments.map(({ sessionId, events }) => ({ sessionId, revision: events[events.length - 1]!.revision }));
    return { rootId, tipId, segments: revisions, events: rawView(segments.flatMap((segment) => segment.events)).events } as ViewOf[V];
  }
  const { state } = await readConversationState(store, anyId);
  return (view === 'active' ? activeView(state) : await displayWithEarlier(store, state)) as ViewOf[V];
};
