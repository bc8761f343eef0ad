import { existsSync } from 'node:fs';
import type { EventStore } from '@session-ledger/core';
import { catalogReadModel } from '../catalog/catalogModel.js';
import { searchModel } from '../search/searchModel.js';
import type { ReadModel } from '../readModel.js';
import type { ReadModels } from './inline.js';
import { erasingStore, subscribedReadModels } from './subscribed.js';

/** The read models every surface keeps: the catalog (inline) and search (deferred to the next search). */
export const DEFAULT_READ_MODELS: readonly ReadModel[] = [catalogReadModel, searchModel];

const attached = new WeakMap<EventStore, ReadModels>();

/** Names the read models that serve `store` (the opener that made both calls this). */
export const attachReadModels = <S extends EventStore>(store: S, readModels: ReadModels): S => {
  attached.set(store, readModels);
  return store;
};

/**
 * The read models serving `store`: those attached when it was opened (inline on SQLite, or a local
 * file fed from $all), else, once per store, models kept in memory and fed from $all. Such a store
 * should be wrapped by `withSubscribedReadModels` so that its deletions reach them.
 */
export const readModelsOf = (store: EventStore): ReadModels => {
  let models = attached.get(store);
  if (!models) attached.set(store, (models = subscribedReadModels(store, ':memory:', DEFAULT_READ_MODELS)));
  return models;
};

/**
 * For a store that cannot keep read models inline (EventStoreDB, memory): read models in a local
 * SQLite file (`:memory:` for none) fed from $all, and the store wrapped so that its deletions and
 * tombstones erase the stream from them too.
 */
export const withSubscribedReadModels = (store: EventStore, file: string, models: readonly ReadModel[] = DEFAULT_READ_MODELS): EventStore => {
  // The local file is opened (and created) on the first read: a command that only writes makes none.
  let runner: ReturnType<typeof subscribedReadModels> | undefined;
  const open = () => (runner ??= subscribedReadModels(store, file, models));
  const readModels: ReadModels & { erase(stream: string): void } = {
    models,
    ready: (name) => open().ready(name),
    status: () => open().status(),
    rebuild: (name, onProgress) => open().rebuild(name, onProgress),
    erase(stream) {
      // No file yet: nothing to erase, and the first read folds $all, which no longer holds the stream.
      if (runner || (file !== ':memory:' && existsSync(file))) open().erase(stream);
    },
  };
  const wrapped = erasingStore(store, readModels);
  wrapped.close = async () => {
    runner?.close();
    await store.close();
  };
  return attachReadModels(wrapped, readModels);
};
