import type { EventStore } from '../port.js';
import type { BreakKind } from './breaks.js';
import type { DeletionRecord, LogEntry } from './port.js';

type Report = (kind: BreakKind, stream: string | null, revision: bigint | null, position: bigint | null, leaf: number | null, what: string) => void;

const covers = (record: DeletionRecord, entry: LogEntry) =>
  record.stream === entry.stream && entry.revision >= record.fromRevision && entry.revision <= record.headRevision && entry.index < record.logSize;

/**
 * Every leaf whose event is gone must be erased by a deletion the log commits to ("missing"
 * otherwise), and every stored deletion record must be committed to by a leaf (streamStates.ts then
 * checks each stream's state against the deletions).
 */
export const checkDeletions = async (store: EventStore, missing: LogEntry[], committed: DeletionRecord[], report: Report): Promise<{ erased: number }> => {
  const leafOf = new Set(committed.map((record) => record.id));
  for (const record of await store.log!.deletions()) {
    if (!leafOf.has(record.id)) report('deletion', record.stream, record.headRevision, null, null, `a ${record.kind} deletion record that no leaf of the log commits to`);
  }
  const byStream = new Map<string, DeletionRecord[]>();
  for (const record of committed) byStream.set(record.stream, [...(byStream.get(record.stream) ?? []), record]);
  let erased = 0;
  for (const entry of missing) {
    if ((byStream.get(entry.stream) ?? []).some((record) => covers(record, entry))) erased += 1;
    else report('missing', entry.stream, entry.revision, entry.position, entry.index, `the event at position ${entry.position} is gone and no recorded deletion erased it`);
  }
  return { erased };
};
