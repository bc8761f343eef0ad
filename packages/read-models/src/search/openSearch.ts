import Database from 'better-sqlite3';
import { readAllPages, type EventStore } from '@session-ledger/core';
import { runSearch, type SearchOptions, type SearchResult } from './runSearch.js';
import { searchModel } from './searchModel.js';

/** What the CLI and HTTP surfaces search through. */
export interface SearchHandle {
  search(options: SearchOptions): SearchResult;
  close(): void;
}

/**
 * THE SEAM until the read-model machinery (packages/read-models/src/machinery) is merged: a
 * throwaway in-memory model, rebuilt from every page of $all on each call. Correct on every store,
 * but it reads the whole history; the machinery's handle (the inline/subscribed model's own tables)
 * replaces this function's body, and the surfaces keep calling `openSearch(store)`.
 */
export const openSearch = async (store: EventStore): Promise<SearchHandle> => {
  const db = new Database(':memory:');
  searchModel.create(db);
  for await (const page of readAllPages(store)) db.transaction(() => searchModel.apply(db, page))();
  return { search: (options) => runSearch(db, options), close: () => db.close() };
};
