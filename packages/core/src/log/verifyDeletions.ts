import type { EventStore } from '../port.js';
import type { BreakKind } from './breaks.js';
import type { DeletionRecord, LogEntry } from './port.js';

type Report = (kind: BreakKind, stream: string | null, revision: bigint | null, position: bigint | null, leaf: number | null, what: string) => void;

const covers = (record: DeletionRecord, entry: LogEntry) =>
  record.stream === entry.stream && entry.revision >= record.fromRevision && entry.revision <= record.headRevision && entry.index < record.logSize;

/**
 * Every leaf whose event is gone must be erased by a deletion the log commits to ("missing"
 * otherwise), every stored deletion record must be committed to by a leaf, and every stream's state
 * must be the one its deletions left: first_live one past the last deletion's head (0 without one),
 * tombstoned exactly when a tombstone was recorded.
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
  for (const info of (await store.listStreams?.()) ?? []) {
    const own = byStream.get(info.name) ?? [];
    const firstLive = own.reduce((live, record) => (record.headRevision + 1n > live ? record.headRevision + 1n : live), 0n);
    const tombstoned = own.some((record) => record.kind === 'tombstone');
    if (info.firstLive !== firstLive) {
      report('hidden', info.name, info.firstLive > 0n ? info.firstLive - 1n : null, null, null, `reads start at revision ${info.firstLive}, the recorded deletions say ${firstLive}`);
    }
    if (info.tombstoned !== tombstoned) report('hidden', info.name, null, null, null, `tombstoned is ${info.tombstoned}, the recorded deletions say ${tombstoned}`);
  }
  return { erased };
};
