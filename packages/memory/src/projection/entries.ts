import { produce } from 'immer';
import type { MemoryEvent, MemoryTarget } from '../events/index.js';

export interface MemoryEntry {
  id: string;
  target: MemoryTarget;
  content: string;
}

/** The memory entries view: entries of both targets in insertion order; a replace keeps its place. */
export interface MemoryEntriesState {
  entries: MemoryEntry[];
}

export const emptyMemoryEntries: MemoryEntriesState = { entries: [] };

/**
 * Pure reducer, keyed by entry id (never by content). A replace or remove of an unknown id
 * changes nothing; an add of a known id (a replayed import) updates it in place.
 */
export const reduceMemoryEntries = (state: MemoryEntriesState, event: MemoryEvent): MemoryEntriesState =>
  produce(state, (draft) => {
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
  });

export const foldMemoryEntries = (events: Iterable<MemoryEvent>, from: MemoryEntriesState = emptyMemoryEntries) => {
  let state = from;
  for (const event of events) state = reduceMemoryEntries(state, event);
  return state;
};

export const entriesOf = (state: MemoryEntriesState, target?: MemoryTarget): MemoryEntry[] =>
  target === undefined ? state.entries : state.entries.filter((entry) => entry.target === target);
