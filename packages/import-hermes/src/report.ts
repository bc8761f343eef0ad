import type { Skipped } from './plan/importPlan.js';
import type { PlannedEvent } from './mapping/stepEvent.js';
import { DELETED_IN_LEDGER } from './ledger/deletedSession.js';

/** What one run of the import did (or, in a dry run, would do). Counts are of what this run wrote. */
export interface ImportReport {
  source: { path: string; schemaVersion: number | null; sessions: number; messages: number };
  dryRun: boolean;
  /** Session streams started by this run. */
  sessions: number;
  /** Of those, compression segments (continuations of another session). */
  segments: number;
  /** Hermes rows written as messages. */
  messages: number;
  /** Hermes rows archived by in-place compaction, as compaction events written. */
  compacted: number;
  /** Hermes rows taken back (active = 0, compacted = 0), as rewind events written. */
  rewound: number;
  /**
   * Hermes rows deleted by a transcript rewrite since an earlier import (`replace_messages`: `/retry`,
   * an editor save), whose messages this run took out of the views (a `history.rewound` event,
   * reason `replaced`); the raw view keeps them.
   */
  replaced: number;
  memoryEntries: number;
  /** Events written in all. */
  events: number;
  /** Sessions that were already imported and received new events. */
  updated: number;
  /** Already in the ledger from an earlier run: sessions complete, events and memory entries held. */
  unchanged: { sessions: number; events: number; memoryEntries: number };
  skipped: Skipped[];
  /**
   * Sessions an earlier import of this file (by its real path) brought in that the file no longer
   * has (Hermes deleted them), while the ledger still holds them: kept, as the ledger never deletes on
   * its own; `sessions delete` removes one.
   */
  noLongerInSource: string[];
}

export const emptyReport = (path: string, dryRun: boolean): ImportReport => ({
  source: { path, schemaVersion: null, sessions: 0, messages: 0 },
  dryRun,
  sessions: 0,
  segments: 0,
  messages: 0,
  compacted: 0,
  rewound: 0,
  replaced: 0,
  memoryEntries: 0,
  events: 0,
  updated: 0,
  unchanged: { sessions: 0, events: 0, memoryEntries: 0 },
  skipped: [],
  noLongerInSource: [],
});

const hermesOf = (event: PlannedEvent) => {
  const hermes = event.metadata.hermes;
  return hermes && typeof hermes === 'object' && !Array.isArray(hermes) ? hermes : undefined;
};

const hermesRowIds = (event: PlannedEvent): number => {
  const ids = hermesOf(event)?.rowIds;
  return Array.isArray(ids) ? ids.length : 0;
};

/** Adds the events one session wrote to the counts. */
export const countWritten = (report: ImportReport, written: PlannedEvent[]): void => {
  for (const event of written) {
    report.events += 1;
    const data = event.data as Record<string, unknown>;
    if (event.type === 'session.started') {
      report.sessions += 1;
      if (data.link === 'compression') report.segments += 1;
    } else if (event.type === 'message.appended') report.messages += 1;
    else if (event.type === 'history.compacted') report.compacted += hermesRowIds(event);
    else if (event.type === 'history.rewound' && hermesOf(event)?.replaced === true) report.replaced += hermesRowIds(event);
    else if (event.type === 'history.rewound') report.rewound += hermesRowIds(event);
  }
};

/**
 * What the source holds that this run did not bring into the ledger: every skipped item but a
 * session deleted in the ledger (kept deleted by design) and rows Hermes itself never shows. The
 * CLI exits 1 when there is any: it exited 0, and `import hermes && rm -rf ~/.hermes` lost them
 * (outside test, session 24).
 */
export const leftOut = (report: ImportReport): Skipped[] => report.skipped.filter((skip) => !skip.intended && skip.reason !== DELETED_IN_LEDGER);

/** A Hermes session id on one line: a newline in it broke the one-item-a-line report (outside test, session 24). */
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The report as text: one line of counts, then one line per skipped item. */
export const formatReport = (report: ImportReport): string => {
  const verb = report.dryRun ? 'would import' : 'imported';
  const lines = [
    `${verb} ${report.sessions} sessions (${report.segments} compression segments), ${report.messages} messages, ` +
      `${report.compacted} compacted and ${report.rewound} rewound rows, ` +
      (report.replaced > 0 ? `${report.replaced} rows Hermes rewrote since taken out of the views, ` : '') +
      `${report.memoryEntries} memory entries ` +
      `(${report.events} events; already present: ${report.unchanged.sessions} sessions, ${report.unchanged.events} events, ` +
      `${report.unchanged.memoryEntries} memory entries)`,
  ];
  for (const skip of report.skipped) {
    lines.push(`skipped${skip.session ? ` ${oneLine(skip.session)}` : ''}${skip.rows ? ` (${skip.rows} rows)` : ''}: ${skip.reason}`);
  }
  for (const id of report.noLongerInSource) {
    lines.push(`no longer in the file ${oneLine(id)}: an earlier import brought it in; the ledger keeps it (sessions delete removes it)`);
  }
  return lines.join('\n');
};
