import type { HermesSchema, HermesSnapshot } from '../model.js';

/** Messages whose session row is missing: left out of the import, reported. */
export interface OrphanRows {
  sessionId: string;
  rows: number;
}

/**
 * A state.db read one lineage unit at a time, all from one consistent snapshot: memory holds one
 * unit's rows (plus a few fields of every session for the lineage), never the whole file.
 */
export interface HermesSource {
  path: string;
  schema: HermesSchema;
  sessionCount: number;
  messageCount: number;
  /** The id of every session in the file. */
  sessionIds: () => string[];
  orphans: () => OrphanRows[];
  /** Each unit as a snapshot of its own sessions and their rows (see lineageUnits). */
  units: () => Iterable<HermesSnapshot>;
}
