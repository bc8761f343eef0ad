import type { StreamInfo } from '../port.js';
import type { BreakKind } from './breaks.js';
import type { DeletionRecord, EventLog } from './port.js';

type Report = (kind: BreakKind, stream: string | null, revision: bigint | null, position: bigint | null, leaf: number | null, what: string) => void;

const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Each stream's last revision among the event leaves [from, to), appended while verify ran: stored
 * or not, since a deletion committed after verify read the deletion records may have erased them
 * (those leaves are not verified; a leaf says the store wrote that revision).
 */
export const lastRevisions = async (log: EventLog, from: number, to: number, into = new Map<string, bigint>()): Promise<Map<string, bigint>> => {
  for (let next = from; next < to; ) {
    const page = await log.entries(next, Math.min(5000, to - next));
    if (page.length === 0) break;
    for (const entry of page) if (!entry.isDeletion && entry.revision > (into.get(entry.stream) ?? -1n)) into.set(entry.stream, entry.revision);
    next = page[page.length - 1]!.index + 1;
  }
  return into;
};

export interface LogStreams {
  /** Each stream's last revision among the verified leaves whose events are stored. */
  verified: ReadonlyMap<string, bigint>;
  /** The same among the leaves appended while verify ran (stored or since erased). */
  appended: ReadonlyMap<string, bigint>;
  /** The log's size verify checked: deletions at or past it were committed while it ran. */
  size: number;
  /**
   * The log's size read just before `listed`: every deletion below it is in the states listed; one at
   * or past it may or may not be (it committed while they were read), so its stream is not compared.
   */
  listedAt: number;
}

/**
 * Every stream's state, as the store listed it before verify read the log's end, against what the
 * log says (but for a stream deleted while the states were read): first_live one past its last deletion's head (0 without one); tombstoned exactly when a
 * tombstone was recorded; a state for every stream the verified log names (a state gone hides the
 * stream from reads, and lets a tombstoned one be written again); and a last revision no higher than
 * its events and deletions reach (one raised refuses every append) and no lower than its deletions
 * erased through (one lowered hands out erased revisions again). An event gone without a deletion
 * is reported as missing, not again here. Streams in name order.
 */
export const checkStreamStates = (listed: StreamInfo[], log: LogStreams, committed: DeletionRecord[], report: Report): void => {
  const states = new Map(listed.map((info) => [info.name, info]));
  const byStream = new Map<string, DeletionRecord[]>();
  for (const record of committed) byStream.set(record.stream, [...(byStream.get(record.stream) ?? []), record]);
  const verifiedDeletion = new Set(committed.filter((record) => record.logSize < log.size).map((record) => record.stream));
  const deletedWhileListed = new Set(committed.filter((record) => record.logSize >= log.listedAt).map((record) => record.stream));
  const names = [...new Set([...states.keys(), ...log.verified.keys(), ...verifiedDeletion])].sort();
  for (const name of names) {
    if (deletedWhileListed.has(name)) continue;
    const own = byStream.get(name) ?? [];
    const info = states.get(name);
    const tombstoned = own.some((record) => record.kind === 'tombstone');
    const last = own.reduce((head, record) => max(head, record.headRevision), max(log.verified.get(name) ?? -1n, log.appended.get(name) ?? -1n));
    if (!info) {
      const what = tombstoned ? 'its recorded tombstone no longer holds: the stream could be written again' : 'reads answer not found';
      report('hidden', name, last >= 0n ? last : null, null, null, `the stream's state is gone: ${what}`);
      continue;
    }
    const firstLive = own.reduce((live, record) => max(live, record.headRevision + 1n), 0n);
    if (info.lastRevision > last) report('hidden', name, info.lastRevision, null, null, `the stream's state says its last revision is ${info.lastRevision}, the log reaches ${last}`);
    // Lower than a deletion listed with it erased through: the store would append at revisions the log
    // records as erased, served by $all and hidden from reads (outside test, session 34, helper-95 F6).
    const deletedThrough = own.filter((record) => record.logSize < log.listedAt).reduce((head, record) => max(head, record.headRevision), -1n);
    if (info.lastRevision < deletedThrough) {
      report('hidden', name, info.lastRevision, null, null, `the stream's state says its last revision is ${info.lastRevision}, but its recorded deletions erased through ${deletedThrough}: appends would take erased revisions`);
    }
    if (info.firstLive !== firstLive) {
      report('hidden', name, info.firstLive > 0n ? info.firstLive - 1n : null, null, null, `reads start at revision ${info.firstLive}, the recorded deletions say ${firstLive}`);
    }
    if (info.tombstoned !== tombstoned) report('hidden', name, null, null, null, `tombstoned is ${info.tombstoned}, the recorded deletions say ${tombstoned}`);
  }
};
