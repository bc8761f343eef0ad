import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { liveEventFilter, makeFolder, readAllPages, type EventStore, type RecordedEvent } from '@session-ledger/core';
import type { ReadModel } from '../readModel.js';
import { readModelFaulted } from '../errors.js';
import { prepared, type Progress } from './catchUp.js';
import { guarded } from './guarded.js';
import { modelNamed, type ReadModels } from './inline.js';
import { metaTable } from './meta.js';

/**
 * Read models for a store that cannot run them inline (EventStoreDB, memory): a local SQLite file
 * (`:memory:` for none) fed from $all after each model's checkpoint, which lives in the same file
 * and moves in the same transaction as the rows (so a crash loses nothing and applies nothing
 * twice). Before every read the models catch up with the store. Deletions made through this
 * process reach the models through `erase` (see `erasingStore`).
 */
export const subscribedReadModels = (store: EventStore, file: string, models: readonly ReadModel[]) => {
  if (file !== ':memory:') makeFolder(dirname(file));
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('secure_delete = ON');
  db.pragma('busy_timeout = 5000');
  const meta = metaTable(db);
  const guard = guarded(db, meta);
  /** Folds the live events of one page of $all and moves the checkpoint past the whole page. */
  const applyPage = db.transaction((model: ReadModel, live: readonly RecordedEvent[], last: bigint) => {
    const current = meta.get(model.name)!;
    if (current.status === 'faulted' || current.version !== model.version) return false;
    const fresh = live.filter((event) => event.position > current.position);
    if (fresh.length > 0 && !guard.apply(model, fresh)) return false;
    if (last > meta.get(model.name)!.position) meta.advance(model.name, last);
    return true;
  });

  const sync = async (model: ReadModel, onProgress?: Progress, force = false) => {
    const current = db.transaction(() => prepared(db, model, meta, force)).immediate();
    if (current.status === 'faulted') return;
    // EventStoreDB keeps a deleted stream's events in $all until a scavenge: they never reach a model.
    const filter = liveEventFilter(store);
    for await (const page of readAllPages(store, current.position < 0n ? 'start' : current.position + 1n)) {
      if (!applyPage.immediate(model, await filter.keep(page), page[page.length - 1]!.position)) return;
      onProgress?.(model.name, page[page.length - 1]!.position, -1n);
    }
    const after = meta.get(model.name)!;
    if (after.status === 'rebuilding') meta.put({ ...after, status: 'ok' });
  };

  const readModels: ReadModels & { erase(stream: string): void; close(): void } = {
    models,
    async ready(name) {
      const model = modelNamed(models, name);
      await sync(model);
      const current = meta.get(name);
      if (current?.status === 'faulted') throw readModelFaulted(name, current.error ?? 'unknown error');
      return db;
    },
    async status() {
      return meta.all();
    },
    async rebuild(name, onProgress) {
      for (const model of name === undefined ? models : [modelNamed(models, name)]) await sync(model, onProgress, true);
    },
    erase(stream) {
      db.transaction(() => {
        for (const model of models) if (meta.get(model.name)) guard.erase(model, stream);
      }).immediate();
    },
    close() {
      if (db.open) db.close();
    },
  };
  return readModels;
};

/** The store, with every delete and tombstone also erasing the stream from the subscribed read models. */
export const erasingStore = (store: EventStore, models: { erase(stream: string): void }): EventStore => ({
  ...store,
  async deleteStream(stream, options) {
    const result = await store.deleteStream(stream, options);
    models.erase(stream);
    return result;
  },
  async tombstoneStream(stream, options) {
    const result = await store.tombstoneStream(stream, options);
    models.erase(stream);
    return result;
  },
  ...(store.tombstoneStreams && {
    async tombstoneStreams(items: Parameters<NonNullable<EventStore['tombstoneStreams']>>[0]) {
      const results = await store.tombstoneStreams!(items);
      for (const { stream } of items) models.erase(stream);
      return results;
    },
  }),
});
