import type { EventStore } from '@session-ledger/core';
import { readModelsOf } from '../machinery/registry.js';
import { runSearch, type SearchOptions, type SearchResult } from './runSearch.js';
import { searchModel } from './searchModel.js';
import { searchOffThread } from './searchThread.js';

/** What the CLI and HTTP surfaces search through. */
export interface SearchHandle {
  search(options: SearchOptions): SearchResult;
  /** The same search on a worker thread (searchThread.ts): what a server uses, so that a long search holds no other request; stopped past `deadlineMs` (SEARCH_DEADLINE_MS). */
  searchOffThread(options: SearchOptions, deadlineMs?: number): Promise<SearchResult>;
}

/**
 * The search model of `store`'s read models (inline runner on SQLite, a local file fed from $all
 * elsewhere), caught up with everything written before this call: a write is found by the next search.
 */
export const openSearch = async (store: EventStore): Promise<SearchHandle> => {
  const db = await readModelsOf(store).ready(searchModel.name);
  return { search: (options) => runSearch(db, options), searchOffThread: (options, deadlineMs) => searchOffThread(db, options, deadlineMs) };
};
