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
  const spans = new Map<DeletionRecord, { first: number; last: number; count: number }>();
  for (const entry of missing) {
    const record = (byStream.get(entry.stream) ?? []).find((candidate) => covers(candidate, entry));
    if (!record) {
      report('missing', entry.stream, entry.revision, entry.position, entry.index, `the event at position ${entry.position} is gone and no recorded deletion erased it`);
      continue;
    }
    erased += 1;
    const span = spans.get(record);
    spans.set(record, { first: Math.min(span?.first ?? entry.index, entry.index), last: Math.max(span?.last ?? entry.index, entry.index), count: (span?.count ?? 0) + 1 });
  }
  checkErasedCounts(committed, spans, size, report);
  // Its leaf range is not in a deletion's leaf: it must be the leaves of the events it erased (of records verified whole).
  const range = (first: number | null, last: number | null) => (first === null ? 'none' : `${first}..${last}`);
  for (const record of committed) {
    const span = spans.get(record);
    if (record.logSize >= size || (record.firstLeaf === (span?.first ?? null) && record.lastLeaf === (span?.last ?? null))) continue;
    report('deletion', record.stream, record.headRevision, null, record.logSize, `the ${record.kind} deletion record names leaves ${range(record.firstLeaf, record.lastLeaf)}, the events it erased are at leaves ${range(span?.first ?? null, span?.last ?? null)}`);
  }
  return { erased };
};

/**
 * A deletion record that erases leaves erased every revision from its first to its head: the store
 * deletes a stream's live events whole, and each of them has a leaf below the record's. So as many
 * of them must be gone as it names; fewer are events put back behind the store (from a backup taken
 * before the deletion), which $all and every subscriber would serve again. Before, only the ends of
 * the range were checked (its leaf range), and events put back inside it passed (outside test,
 * session 25). More are leaves relabelled as its: every erased leaf is some record's, and each
 * record's count is fixed by its leaf, so a leaf hidden under one shows as a surplus (session 34).
 */
const checkErasedCounts = (committed: DeletionRecord[], spans: Map<DeletionRecord, { count: number }>, size: number, report: Report): void => {
  for (const record of committed) {
    if (record.logSize >= size || record.firstLeaf === null || record.headRevision < record.fromRevision) continue;
    const named = record.headRevision - record.fromRevision + 1n;
    const found = BigInt(spans.get(record)?.count ?? 0);
    if (found === named) continue;
    const what = `the ${record.kind} deletion record erased revisions ${record.fromRevision}..${record.headRevision} (${named} events)`;
    // More erased leaves than it names: leaf rows of events gone without a deletion relabelled as its
    // revisions (their labels are not rehashable once the event is gone), which hid a live stream's
    // tail or a whole stream (outside test, session 34, helper-95 F7).
    if (found > named) report('deletion', record.stream, record.headRevision, null, record.logSize, `${what}, but ${found} leaves of events gone are labelled as its: leaf rows were relabelled to hide events deleted behind the store`);
    else report('deletion', record.stream, record.headRevision, null, record.logSize, `${what}, but only ${found} of their leaves are erased: events it erased were put back, or erased leaf rows were relabelled`);
  }
};

/**
 * A deletion the store could not have written: the store deletes a stream through its head, the
 * highest revision it holds when the delete commits, so a record's head must be the highest event
 * leaf of its stream below the record's own leaf (`headsBelow`, by record id; null: none, then the
 * record erases nothing). A record naming an earlier head would pass events off as erased while
 * later ones stay (outside test, session 14). Only records that erase leaves are checked: one that
 * erases none hides nothing the log committed to (checkDeletions holds its leaf range to the events
 * it erased), and the migration to the log records deletes made before it that way, through an
 * earlier head. Records not in `headsBelow` (committed while verify ran) are not checked here.
 */
export const checkDeletionHeads = (committed: DeletionRecord[], headsBelow: Map<number, bigint | null>, report: Report): void => {
  for (const record of committed) {
    if (!headsBelow.has(record.id)) continue;
    const head = headsBelow.get(record.id) ?? null;
    if (record.firstLeaf === null) {
      // Naming no leaves, it erased none; an event leaf of its stream below it inside the range it erased
      // says otherwise: its leaf range (not in its leaf) was cleared and the events put back, which the
      // count above then skipped (outside test, session 34, helper-95 F8).
      if (head !== null && head >= record.fromRevision && head <= record.headRevision) {
        report('deletion', record.stream, record.headRevision, null, record.logSize, `the ${record.kind} deletion record names no leaves, but the stream's event leaf of revision ${head} below it lies in the revisions ${record.fromRevision}..${record.headRevision} it erased: its leaf range was cleared and the events put back`);
      }
      continue;
    }
    if (head === null ? record.headRevision < record.fromRevision : record.headRevision === head) continue;
    const was = head === null ? 'no event leaf of the stream lies below it' : `the stream's last event leaf below it is revision ${head}`;
    report('deletion', record.stream, record.headRevision, null, record.logSize, `the ${record.kind} deletion record erases through revision ${record.headRevision}, but ${was}: the store deletes through the head`);
  }
};
