import type Database from 'better-sqlite3';

export interface CatalogStats {
  sessions: number;
  messages: number;
  bySource: Array<{ source: string | null; sessions: number; messages: number }>;
  byModel: Array<{ model: string | null; sessions: number; messages: number }>;
  /** Bytes of the store's file (and its WAL), when it is a file. */
  storeBytes: number | null;
}

/** Totals over the catalog: conversations, messages, and both split by source and by model. */
export const catalogStats = (db: Database.Database, storeBytes: number | null): CatalogStats => {
  const total = db.prepare('SELECT count(*) AS sessions, coalesce(sum(messages), 0) AS messages FROM catalog').get() as { sessions: number; messages: number };
  const bySource = db
    .prepare('SELECT source, count(*) AS sessions, coalesce(sum(messages), 0) AS messages FROM catalog GROUP BY source ORDER BY sessions DESC, source')
    .all() as CatalogStats['bySource'];
  const byModel = db
    .prepare('SELECT model, count(*) AS sessions, coalesce(sum(messages), 0) AS messages FROM catalog GROUP BY model ORDER BY sessions DESC, model')
    .all() as CatalogStats['byModel'];
  return { sessions: total.sessions, messages: total.messages, bySource, byModel, storeBytes };
};
