import type Database from 'better-sqlite3';
import type { ReadModel } from '../readModel.js';
import { guarded } from './guarded.js';
import type { LedgerEvents } from './ledgerEvents.js';
import type { MetaTable, ReadModelMeta } from './meta.js';

/** Progress of a catch-up or rebuild: the position reached and the ledger's head. */
export type Progress = (name: string, position: bigint, head: bigint) => void;

export const CHUNK = 5000;

/**
 * Puts the model's tables in place for its version: a file holding another version (or none) is
 * dropped and created again, to be rebuilt from the start. Runs inside the caller's transaction.
 */
export const prepared = (db: Database.Database, model: ReadModel, meta: MetaTable, force = false): ReadModelMeta => {
  const current = meta.get(model.name);
  if (current && current.version === model.version && !force) return current;
  model.drop(db);
  model.create(db);
  const fresh: ReadModelMeta = { name: model.name, version: model.version, position: -1n, status: 'rebuilding', error: null };
  meta.put(fresh);
  return fresh;
};

/**
 * Brings an inline read model up to the ledger's head, one chunk of events per immediate
 * transaction, so writers get in between chunks and a kill -9 loses at most the chunk in flight:
 * the next run resumes after the last chunk committed (position in `read_models`), with no gap and
 * no event applied twice. A faulted model is left alone (rebuild repairs it).
 */
export const catchUp = (db: Database.Database, model: ReadModel, meta: MetaTable, events: LedgerEvents, onProgress?: Progress): void => {
  const guard = guarded(db, meta);
  const step = db.transaction((): boolean => {
    const current = prepared(db, model, meta);
    if (current.status === 'faulted') return true;
    const batch = events.after(current.position, CHUNK);
    if (batch.length === 0) {
      if (current.status !== 'ok') meta.put({ ...current, status: 'ok' });
      return true;
    }
    if (!guard.apply(model, batch)) return true;
    onProgress?.(model.name, batch[batch.length - 1]!.position, events.head());
    return false;
  });
  while (!step.immediate());
};
