import type { MemoryEvent, MemoryTarget } from '@session-ledger/events';
import { produce } from '../session/immer.js';

export interface MemoryEntry {
  id: string;
  target: MemoryTarget;
  content: string;
}

/** The memory entries view of one profile: both targets in insertion order; a replace keeps its place. */
export interface MemoryEntriesView {
  entries: MemoryEntry[];
}

export const emptyMemoryEntries = (): MemoryEntriesView => ({ entries: [] });

const apply = (draft: MemoryEntriesView, event: MemoryEvent): void => {
  const index = draft.entries.findIndex((entry) => entry.id === event.data.entryId);
  switch (event.type) {
    case 'memory.entry_added':
      if (index >= 0) draft.entries[index]!.content = event.data.content;
      else draft.entries.push({ id: event.data.entryId, target: event.data.target, content: event.data.content });
      return;
    case 'memory.entry_replaced':
      if (index >= 0) draft.entries[index]!.content = event.data.content;
      return;
    case 'memory.entry_removed':
      if (index >= 0) draft.entries.splice(index, 1);
      return;
  }
};

/**
 * Pure reducer keyed by entry id, never by content: a replace or remove of an unknown id changes
 * nothing; an add of a known id (a replayed import) updates it in place.
 */
export const reduceMemoryEntries = (view: MemoryEntriesView, event: MemoryEvent): MemoryEntriesView =>
  produce(view, (draft) => apply(draft, event));

/** Folds a whole stream inside one draft. */
export const foldMemoryEntries = (events: Iterable<MemoryEvent>, from: MemoryEntriesView = emptyMemoryEntries()): MemoryEntriesView =>
  produce(from, (draft) => {
    for (const event of events) apply(draft, event);
  });

export const entriesOf = (view: MemoryEntriesView, target?: MemoryTarget): MemoryEntry[] =>
  target === undefined ? view.entries : view.entries.filter((entry) => entry.target === target);
