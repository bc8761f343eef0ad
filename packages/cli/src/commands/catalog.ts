import { statSync } from 'node:fs';
import type { EventStore } from '@session-ledger/core';
import { catalogPage, catalogStats, parseSince, readModelsOf, resolveSessionIn, type CatalogPage, type CatalogStats } from '@session-ledger/read-models';
import type { CommandContext } from '../context.js';
import { parseCountOption } from '../parse.js';

export interface ListFlags {
  limit?: string;
  cursor?: string;
  source?: string;
  live?: boolean;
  since?: string;
}

/** `sessions list`: one page of the catalog read model (never a fold of $all). */
export const listPage = async (context: CommandContext, store: EventStore, flags: ListFlags): Promise<CatalogPage> => {
  const now = context.now();
  const limit = flags.limit === undefined ? undefined : parseCountOption('limit', flags.limit);
  const db = await readModelsOf(store).ready('catalog');
  return catalogPage(db, {
    limit,
    cursor: flags.cursor ?? null,
    source: flags.source,
    live: flags.live ? true : undefined,
    since: flags.since === undefined ? undefined : parseSince('--since', flags.since, now),
    now,
  });
};

const fileBytes = (storeName: string): number | null => {
  if (!storeName.startsWith('sqlite:')) return null;
  const file = storeName.slice('sqlite:'.length);
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(file + suffix).size;
    } catch {
      // no WAL file: nothing to add
    }
  }
  return total;
};

/** `sessions stats`: totals over the catalog, and the store file's size. */
export const stats = async (store: EventStore): Promise<CatalogStats> => catalogStats(await readModelsOf(store).ready('catalog'), fileBytes(store.name));

/** A session id as typed: a full id, a unique prefix (4+ characters) or an exact title (see resolveSession); a deleted session's own id names it still. */
export const resolveId = (store: EventStore, selector: string): Promise<string> => resolveSessionIn(store, selector);
