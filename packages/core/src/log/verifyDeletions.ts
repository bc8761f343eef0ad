import type { BreakKind } from './breaks.js';
import type { DeletionRecord, LogEntry } from './port.js';

type Report = (kind: BreakKind, stream: string | null, revision: bigint | null, position: bigint | null, leaf: number | null, what: string) => void;

const covers = (record: DeletionRecord, entry: LogEntry) =>
  record.stream === entry.stream && entry.revision >= record.fromRevision && entry.revision <= record.headRevision && entry.index < record.logSize;

/**
 * Every leaf whose event is gone must be erased by a deletion the log commits to ("missing"
 * otherwise), every stored deletion record (`records`, read before the log's end) must be committed to by a leaf and name the leaves of the
 * events it erased (those committed below `size`, the log verified; streamStates.ts then
 * checks each stream's state against the deletions).
 */
export const checkDeletions = (records: DeletionRecord[], missing: LogEntry[], committed: DeletionRecord[], size: number, report: Report): { erased: number } => {
  const leafOf = new Set(committed.map((record) => record.id));
  for (const record of records) {
    if (!leafOf.has(record.id)) report('deletion', record.stream, record.headRevision, null, null, `a ${record.kind} deletion record that no leaf of the log commits to`);
  }
  const byStream = new Map<string, DeletionRecord[]>();
  for (const record of committed) byStream.set(record.stream, [...(byStream.get(record.stream) ?? []), record]);
  let erased = 0;
  const spans = new Map<DeletionRecord, { first: number; last: number }>();
  for (const entry of missing) {
    const record = (byStream.get(entry.stream) ?? []).find((candidate) => covers(candidate, entry));
    if (!record) {
      report('missing', entry.stream, entry.revision, entry.position, entry.index, `the event at position ${entry.position} is gone and no recorded deletion erased it`);
      continue;
    }
    erased += 1;
    const span = spans.get(record);
    spans.set(record, { first: Math.min(span?.first ?? entry.index, entry.index), last: Math.max(span?.last ?? entry.index, entry.index) });
  }
  // Its leaf range is not in a deletion's leaf: it must be the leaves of the events it erased (of records verified whole).
  const range = (first: number | null, last: number | null) => (first === null ? 'none' : `${first}..${last}`);
  for (const record of committed) {
    const span = spans.get(record);
    if (record.logSize >= size || (record.firstLeaf === (span?.first ?? null) && record.lastLeaf === (span?.last ?? null))) continue;
    report('deletion', record.stream, record.headRevision, null, record.logSize, `the ${record.kind} deletion record names leaves ${range(record.firstLeaf, record.lastLeaf)}, the events it erased are at leaves ${range(span?.first ?? null, span?.last ?? null)}`);
  }
  return { erased };
};
