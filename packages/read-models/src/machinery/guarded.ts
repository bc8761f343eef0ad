import type Database from 'better-sqlite3';
import type { RecordedEvent } from '@session-ledger/core';
import type { ReadModel } from '../readModel.js';
import type { MetaTable } from './meta.js';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Runs a read model's work under its own savepoint. A projection that throws is rolled back to that
 * savepoint and marked faulted in `read_models`; the error never reaches the append that carried it.
 */
export const guarded = (db: Database.Database, meta: MetaTable) => {
  const inSavepoint = db.transaction((work: () => void) => work());
  const fault = (model: ReadModel, error: unknown) => {
    const current = meta.get(model.name);
    meta.put({ name: model.name, version: model.version, position: current?.position ?? -1n, status: 'faulted', error: messageOf(error) });
  };
  return {
    /** Applies events and moves the model's position to the last of them; false when the model faulted. */
    apply(model: ReadModel, events: readonly RecordedEvent[], before?: () => void): boolean {
      try {
        inSavepoint(() => {
          before?.();
          model.apply(db, events);
          meta.advance(model.name, events[events.length - 1]!.position);
        });
        return true;
      } catch (error) {
        fault(model, error);
        return false;
      }
    },
    /**
     * Erases a stream's rows. If the model cannot, its tables are dropped (deleted means gone, even
     * from a broken model) and it is faulted until rebuilt.
     */
    erase(model: ReadModel, stream: string): void {
      try {
        inSavepoint(() => model.erase(db, stream));
      } catch (error) {
        inSavepoint(() => model.drop(db));
        fault(model, error);
      }
    },
  };
};
