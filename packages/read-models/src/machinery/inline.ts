import type Database from 'better-sqlite3';
import { ledgerError, type RecordedEvent } from '@session-ledger/core';
import type { ReadModel } from '../readModel.js';
import { readModelFaulted } from '../errors.js';
import { catchUp, CHUNK, prepared, type Progress } from './catchUp.js';
import { guarded } from './guarded.js';
import { ledgerEvents, type LedgerEvents } from './ledgerEvents.js';
import { metaTable, type MetaTable, type ReadModelMeta } from './meta.js';

const END = 2n ** 62n;

/** What every runner of read models offers its readers (inline on SQLite, or fed by a subscription). */
export interface ReadModels {
  readonly models: readonly ReadModel[];
  /** The database holding `name`, caught up with the ledger; throws `read_model_faulted` for a faulted model. */
  ready(name: string): Promise<Database.Database>;
  status(): Promise<ReadModelMeta[]>;
  /** Drops and rebuilds one model (or all) from $all. */
  rebuild(name?: string, onProgress?: Progress): Promise<void>;
}

interface Attached {
  db: Database.Database;
  meta: MetaTable;
  events: LedgerEvents;
  guard: ReturnType<typeof guarded>;
}

/** What the SQLite store calls in its write transactions (its `CommitHook`); `appended` only when a model is kept inline. */
export interface InlineHook {
  init(db: Database.Database): void;
  appended?(db: Database.Database, events: RecordedEvent[]): void;
  erased(db: Database.Database, stream: string): void;
}

export const modelNamed = (models: readonly ReadModel[], name: string): ReadModel => {
  const model = models.find((candidate) => candidate.name === name);
  if (!model) throw ledgerError('not_found', `No read model named ${name} (known: ${models.map((m) => m.name).join(', ')})`, { what: 'read model', id: name });
  return model;
};

/**
 * Read models kept inline by the SQLite store: `hook` goes into `openSqliteStore(file, { onCommit })`.
 * On open every model is brought to its version and to the head (a changed version is rebuilt);
 * then each append applies its events to every model inside the append's own savepoint, so a write
 * is in the read models when it is acknowledged. A model whose position is behind the events it is
 * given (events written by a process without the read models) is caught up first, in the same
 * transaction; a model being rebuilt is skipped (the rebuild reaches those events itself).
 */
export interface InlineOptions {
  onProgress?: Progress;
  /**
   * `inline` (default): each append folds its events into the models in its own savepoint.
   * `deferred`: appends leave the models alone and the next read (`ready`) folds in what it finds
   * after the model's position, in one transaction; a write is still in the next read, at no cost
   * to the append. Deletions erase in the deleting transaction either way. A model whose own
   * `upkeep` is `deferred` is deferred whatever this says.
   */
  appends?: 'inline' | 'deferred';
}

export const inlineReadModels = (models: readonly ReadModel[], options: InlineOptions = {}) => {
  let attached: Attached | undefined;
  const inlineModels = models.filter((model) => (model.upkeep ?? 'inline') === 'inline');
  const need = (): Attached => {
    if (!attached) throw new Error('read models used before the store opened');
    return attached;
  };

  const applyOne = (a: Attached, model: ReadModel, batch: readonly RecordedEvent[]) => {
    const current = a.meta.get(model.name);
    if (!current || current.status !== 'ok' || current.version !== model.version) return;
    const first = batch[0]!.position;
    const fillGap = () => {
      // Events between the model's position and this append's were written without the read models.
      for (let position = current.position; a.events.anyBetween(position, first); ) {
        const missing = a.events.after(position, CHUNK).filter((event) => event.position < first);
        model.apply(a.db, missing);
        position = missing[missing.length - 1]!.position;
      }
    };
    a.guard.apply(model, batch, fillGap);
  };

  /** Whether the model's tables are missing, of another version, or mid-rebuild. */
  const unbuilt = (a: Attached, model: ReadModel): boolean => {
    const current = a.meta.get(model.name);
    return !current || current.version !== model.version || current.status === 'rebuilding';
  };

  /** Whether the model needs a catch-up (or a rebuild): read without taking the write lock. */
  const behind = (a: Attached, model: ReadModel): boolean => {
    const current = a.meta.get(model.name);
    return !current || current.version !== model.version || current.status === 'rebuilding' || (current.status === 'ok' && a.events.anyBetween(current.position, END));
  };

  const hook = {
    init(db: Database.Database): void {
      const meta = metaTable(db);
      const a: Attached = (attached = { db, meta, events: ledgerEvents(db), guard: guarded(db, meta) });
      // An inline model is brought to the head; a deferred one only built when it is missing, of
      // another version or mid-rebuild: merely behind, it waits for its next read, so opening a
      // ledger for a command that reads nothing (or fails) writes nothing.
      for (const model of models) if (inlineModels.includes(model) ? behind(a, model) : unbuilt(a, model)) catchUp(db, model, meta, a.events, options.onProgress);
    },
    erased(_db: Database.Database, stream: string): void {
      const a = need();
      for (const model of models) a.guard.erase(model, stream);
    },
  };

  const appended = (_db: Database.Database, events: RecordedEvent[]): void => {
    const a = need();
    for (const model of inlineModels) {
      try {
        applyOne(a, model, events);
      } catch {
        // Outside the projection (its own errors fault it under its savepoint): the model's row is
        // unreadable. The append goes on; the model's position stays behind, so the next read or
        // open catches it up (or says what is wrong).
      }
    }
  };
  // Nothing kept inline (every default model is deferred): no `appended`, so the store builds no
  // RecordedEvent per append (benchmark row "group commit: HTTP appends, 32 keep-alive clients").
  const inlineHook: InlineHook = options.appends === 'deferred' || inlineModels.length === 0 ? hook : { ...hook, appended };

  const readModels: ReadModels = {
    models,
    async ready(name) {
      const a = need();
      const model = modelNamed(models, name);
      if (behind(a, model)) catchUp(a.db, model, a.meta, a.events, options.onProgress);
      const after = a.meta.get(name);
      if (after?.status === 'faulted') throw readModelFaulted(name, after.error ?? 'unknown error');
      return a.db;
    },
    async status() {
      return need().meta.all();
    },
    async rebuild(name, onProgress) {
      const a = need();
      for (const model of name === undefined ? models : [modelNamed(models, name)]) {
        a.db.transaction(() => prepared(a.db, model, a.meta, true)).immediate();
        catchUp(a.db, model, a.meta, a.events, onProgress ?? options.onProgress);
      }
    },
  };
  return { hook: inlineHook, readModels };
};
