import type Database from 'better-sqlite3';
import { readAllPages, type EventStore } from '@session-ledger/core';
import type { ReadModel } from '@session-ledger/read-models';

/**
 * Until the machinery is merged: a model built from a real ledger's $all, page by page, each page in
 * one transaction (as the subscription runner will apply it). Creates the tables first.
 */
export const rebuildInto = async (db: Database.Database, model: ReadModel, store: EventStore): Promise<void> => {
  model.create(db);
  for await (const page of readAllPages(store)) db.transaction(() => model.apply(db, page))();
};
