import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type Database from 'better-sqlite3';
import { createLedger, type EventStore } from '@session-ledger/core';
import { DEFAULT_READ_MODELS, attachReadModels, catalogPage, catalogReadModel, inlineReadModels, type CatalogRow, type ReadModel, type ReadModels } from '@session-ledger/read-models';
import { openSqliteStore } from '@session-ledger/store-sqlite';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

export const scratchDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'read-models-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** The catalog forced inline (its own upkeep is deferred): what the inline runner does to each append. */
export const inlineCatalog: ReadModel = { ...catalogReadModel, upkeep: 'inline' };

/** A SQLite ledger with the catalog kept inline; closed after the test. */
export const catalogStore = (file = join(scratchDir(), 'ledger.sqlite')): { store: EventStore; readModels: ReadModels; file: string } => {
  const { hook, readModels } = inlineReadModels([inlineCatalog]);
  const store = openSqliteStore(file, { onCommit: hook });
  cleanups.push(() => store.close());
  return { store, readModels, file };
};

/** Every row of the catalog, walking the pages. */
export const allRows = (db: Database.Database, now: Date, pageSize = 7): CatalogRow[] => {
  const rows: CatalogRow[] = [];
  let cursor: string | null = null;
  do {
    const page = catalogPage(db, { limit: pageSize, cursor, now });
    rows.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
};

/** The catalog's tables as plain rows, for comparing two builds of it. */
export const dump = (db: Database.Database) => ({
  catalog: db.prepare('SELECT * FROM catalog ORDER BY root_id').all(),
  segments: db.prepare('SELECT * FROM catalog_segments ORDER BY id').all(),
});

/** A SQLite ledger file with the default read models (catalog and search, deferred) as `serve` runs them, and a writer at a fixed time; closed after the test. */
export const defaultModelsLedger = () => {
  const { hook, readModels } = inlineReadModels(DEFAULT_READ_MODELS);
  const store = attachReadModels(openSqliteStore(join(scratchDir(), 'ledger.db'), { onCommit: hook }), readModels);
  cleanups.push(() => store.close());
  return { store, readModels, writer: { ledger: createLedger(store), now: () => new Date('2026-12-01T10:00:00Z') } };
};
