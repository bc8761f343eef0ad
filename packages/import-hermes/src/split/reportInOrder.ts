import type { PlannedEvent } from '../mapping/stepEvent.js';
import { countWritten, emptyReport, type ImportReport } from '../report.js';
import type { FromAppender, SessionOutcome, WroteCounts } from './protocol.js';

/**
 * What the report is told, in the order the one-thread import tells it: a session the worker writes
 * waits for its outcome; what this thread decides alone (a session skipped, refused, in conflict or
 * already complete) waits behind the sessions before it, so the report's lists come out in order.
 */
type Entry = { worker: false; apply: () => void } | { worker: true; sessionId: string; rows: number };

/** The report's counts of one batch (countWritten), and its Hermes rows for the progress. */
export const countsOf = (batch: PlannedEvent[]): WroteCounts => {
  const r = emptyReport('', false);
  countWritten(r, batch);
  let rows = 0;
  for (const event of batch) rows += event.rowIds.length;
  return { events: r.events, sessions: r.sessions, segments: r.segments, messages: r.messages, compacted: r.compacted, rewound: r.rewound, replaced: r.replaced, rows };
};

export interface ReportInOrder {
  /** Sessions reported so far (one thread's `index`). */
  sessions(): number;
  /** The session the worker is writing, if any. */
  writing(): string | null;
  /** Something this thread knows now, told after the sessions before it. */
  local(apply: () => void): void;
  /** A session's outcome this thread decided alone, told in its place. */
  decided(sessionId: string, rows: number, outcome: SessionOutcome): void;
  /** A session the worker writes: its outcome comes from the worker. */
  sent(sessionId: string, rows: number): void;
  /** The worker's reports, in order. */
  onMessage(message: Extract<FromAppender, { t: 'wrote' | 'outcome' }>): void;
  /** Tells whatever waits behind no session. */
  flush(): void;
}

export const reportInOrder = (report: ImportReport, total: number, onProgress?: (done: number, total: number) => void): ReportInOrder => {
  let done = 0;
  let index = 0;
  const queue: Entry[] = [];
  const drainLocal = () => {
    while (queue.length > 0 && !queue[0]!.worker) (queue.shift() as { apply: () => void }).apply();
  };
  const head = () => {
    drainLocal();
    return queue[0] as Extract<Entry, { worker: true }> | undefined;
  };
  const local = (apply: () => void) => {
    queue.push({ worker: false, apply });
    if (queue.length === 1) drainLocal();
  };
  /** As importSessions counts a session's outcome. */
  const apply = (sessionId: string, rows: number, outcome: SessionOutcome) => {
    if (outcome.kind === 'refused') {
      report.skipped.push({ session: sessionId, rows, reason: `cannot be mapped: ${outcome.reason}` });
    } else {
      report.unchanged.events += outcome.existing;
      if (outcome.existing > 0 && outcome.written === 0 && outcome.kind === 'synced') report.unchanged.sessions += 1;
      if (outcome.existing > 0 && outcome.written > 0) report.updated += 1;
      if (outcome.kind === 'conflict') report.skipped.push({ session: sessionId, rows, reason: outcome.reason });
    }
    done += rows;
    index += 1;
    // One thread tells the progress of a refused session with the next one's.
    if (outcome.kind !== 'refused') onProgress?.(done, total);
  };
  return {
    sessions: () => index,
    writing: () => head()?.sessionId ?? null,
    local,
    decided: (sessionId, rows, outcome) => local(() => apply(sessionId, rows, outcome)),
    sent: (sessionId, rows) => void queue.push({ worker: true, sessionId, rows }),
    onMessage(message) {
      const item = head()!;
      if (message.t === 'wrote') {
        report.events += message.events;
        report.sessions += message.sessions;
        report.segments += message.segments;
        report.messages += message.messages;
        report.compacted += message.compacted;
        report.rewound += message.rewound;
        report.replaced += message.replaced;
        onProgress?.(done + message.rows, total);
        return;
      }
      queue.shift();
      apply(item.sessionId, item.rows, message.outcome);
      drainLocal();
    },
    flush: drainLocal,
  };
};
