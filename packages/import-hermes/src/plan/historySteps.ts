import type { HermesMessage } from '../model.js';
import { isReviewHarness, SESSION_META } from '../mapping/hermesRead.js';
import { displayKey } from './displayHistory.js';
import { compactionSummaryId, messageIdOf } from './ids.js';
import type { CopyRow, PlanStep } from './steps.js';

interface Pending {
  /** Ledger id → row, for rows archived since the last compaction (display key → ledger id for pairing). */
  archived: Map<string, HermesMessage>;
  rewound: Map<string, HermesMessage>;
}

/**
 * The rows a compaction wrote, starting at `start`: summary rows and copies of rows it archived or
 * carried over (same display identity). Stops at the first row that is neither: the next turn.
 */
const compactionRun = (rows: HermesMessage[], start: number, pending: Pending) => {
  const byKey = new Map<string, string>();
  for (const map of [pending.archived, pending.rewound]) {
    for (const [id, row] of map) if (!byKey.has(displayKey(row))) byKey.set(displayKey(row), id);
  }
  const summaries: HermesMessage[] = [];
  const copies: CopyRow[] = [];
  let end = start;
  for (; end < rows.length; end += 1) {
    const row = rows[end]!;
    const of = byKey.get(displayKey(row));
    if (of !== undefined && !row.summary) {
      copies.push({ row, of });
      byKey.delete(displayKey(row));
    } else if (row.summary) summaries.push(row);
    else break;
  }
  return { summaries, copies, end };
};

/**
 * Rows Hermes strips on read as background-review pollution: each harness prompt and the assistant
 * reply right after it (Hermes' rule, over the rows it shows, in id order).
 */
export const reviewHarnessRows = (rows: HermesMessage[]): Set<number> => {
  const hidden = new Set<number>();
  let skipNextAssistant = false;
  let previousWasHarness = false;
  for (const row of rows) {
    if (row.state === 'rewound') continue;
    if (isReviewHarness(row.role, row.content)) {
      skipNextAssistant = !previousWasHarness;
      previousWasHarness = true;
      hidden.add(row.rowId);
      continue;
    }
    if (skipNextAssistant) {
      skipNextAssistant = false;
      if (row.role === 'assistant') {
        previousWasHarness = false;
        hidden.add(row.rowId);
        continue;
      }
    }
    previousWasHarness = false;
  }
  return hidden;
};

/**
 * In a file without `_compressed_summary`: the row carrying the summary of the compaction whose rows
 * start at `start` (the rows before the next archived row; Hermes inserts the compacted set at once).
 */
const inlineSummary = (rows: HermesMessage[], start: number): HermesMessage | null => {
  for (let i = start; i < rows.length && rows[i]!.state !== 'compacted'; i += 1) if (rows[i]!.summaryText) return rows[i]!;
  return null;
};

/**
 * One session's rows as message, compaction and rewind steps. A compaction is placed where its first
 * written row (summary or copy) stands; copies are one logical message with their original, which
 * stays in the active view; rows taken back are rewound before the next row that is not.
 * `skip`: a leading row consumed elsewhere (a compression child's summary).
 */
export const historySteps = (sessionId: string, rows: HermesMessage[], skip: HermesMessage | null = null): PlanStep[] => {
  const steps: PlanStep[] = [];
  const alias = new Map<number, string>();
  /** The ledger's view as the steps so far leave it: message positions, live messages, summary ids. */
  const position = new Map<string, number>();
  const live = new Set<string>();
  const summaries = new Set<string>(skip ? [messageIdOf(skip.rowId)] : []);
  const idOf = (row: HermesMessage) => alias.get(row.rowId) ?? messageIdOf(row.rowId);
  const pending: Pending = { archived: new Map(), rewound: new Map() };
  const track = (row: HermesMessage) => {
    const id = idOf(row);
    if (row.state === 'compacted') pending.archived.set(id, row);
    else if (row.state === 'rewound') pending.rewound.set(id, row);
  };
  const flushRewound = (at: number | null) => {
    if (pending.rewound.size === 0) return;
    const rowsOut = [...pending.rewound.values()];
    steps.push({ kind: 'rewind', messageIds: [...pending.rewound.keys()], rowIds: rowsOut.map((r) => r.rowId), reason: 'rewound', at });
    for (const id of pending.rewound.keys()) live.delete(id);
    pending.rewound.clear();
  };
  const compaction = (summaryRow: HermesMessage | null, triggerRowId: number, copies: CopyRow[], inline = false) => {
    const archivedRows = [...pending.archived.values()];
    const ids = [...pending.archived.keys()];
    const messageIds = ids.filter((id) => !summaries.has(id));
    const last = messageIds.reduce<string | null>((best, id) => (best === null || position.get(id)! > position.get(best)! ? id : best), null);
    const taken = new Set(messageIds);
    const contiguous = last !== null && [...live].every((id) => taken.has(id) || position.get(id)! > position.get(last)!);
    const summaryId = summaryRow ? messageIdOf(summaryRow.rowId) : compactionSummaryId(sessionId, triggerRowId);
    // An inline summary is a message too: a later compaction takes it like any other message.
    if (!inline) summaries.add(summaryId);
    for (const id of messageIds) live.delete(id);
    for (const row of archivedRows) if (!summaries.has(idOf(row))) archivedKeys.set(displayKey(row), row);
    steps.push({
      kind: 'compaction',
      messageIds,
      through: contiguous ? last : null,
      summaryIds: ids.filter((id) => summaries.has(id) && id !== summaryId),
      summaryId,
      summaryRow,
      inline,
      copies,
      rowIds: archivedRows.map((r) => r.rowId),
    });
    pending.archived.clear();
  };
  /**
   * Rows a compaction archived, by Hermes' display identity: a later row that repeats one (a copy
   * written as a message of its own, e.g. after a summary row Hermes recognises by its text) is the
   * one Hermes shows (e89532d keeps the row with the highest (active, id)), so the archived one is
   * rewound as carried over right after it.
   */
  const archivedKeys = new Map<string, HermesMessage>();
  const hidden = reviewHarnessRows(rows);
  const message = (row: HermesMessage, messageId: string) => {
    position.set(messageId, position.size);
    live.add(messageId);
    steps.push({ kind: 'message', row, messageId });
    const repeated = row.state === 'rewound' ? undefined : archivedKeys.get(displayKey(row));
    if (repeated !== undefined && idOf(repeated) !== messageId) {
      archivedKeys.delete(displayKey(row));
      steps.push({ kind: 'rewind', messageIds: [idOf(repeated)], rowIds: [repeated.rowId], reason: 'carried_over', at: row.timestamp });
    }
    if (hidden.has(row.rowId)) {
      // Kept, and out of both views, as Hermes strips it on read.
      steps.push({ kind: 'rewind', messageIds: [messageId], rowIds: [row.rowId], reason: 'background-review', at: row.timestamp });
      live.delete(messageId);
    } else if (row.role === SESSION_META && row.state !== 'rewound') {
      // The gateway's transcript header: Hermes' CLI and gateway drop it before showing or sending (outside test, session 27, F10).
      steps.push({ kind: 'rewind', messageIds: [messageId], rowIds: [row.rowId], reason: 'session-meta', at: row.timestamp });
      live.delete(messageId);
    }
  };
  let index = 0;
  while (index < rows.length) {
    const row = rows[index]!;
    if (row === skip) {
      index += 1;
      track(row);
      continue;
    }
    if (pending.archived.size > 0 && (row.summary || row.state === 'active')) {
      const run = compactionRun(rows, index, pending);
      for (const copy of run.copies) {
        pending.archived.delete(copy.of);
        pending.rewound.delete(copy.of);
        alias.set(copy.row.rowId, copy.of);
      }
      const [flagged = null, ...extraSummaries] = run.summaries;
      const inline = flagged === null ? inlineSummary(rows, index) : null;
      flushRewound(row.timestamp);
      compaction(flagged ?? inline, row.rowId, run.copies, inline !== null);
      for (const extra of extraSummaries) message(extra, messageIdOf(extra.rowId));
      for (const done of rows.slice(index, run.end)) track(done);
      index = run.end;
      continue;
    }
    if (row.state !== 'rewound') flushRewound(row.timestamp);
    message(row, idOf(row));
    track(row);
    index += 1;
  }
  flushRewound(null);
  // Archived rows with nothing written after them (their summary was taken back): still a compaction.
  if (pending.archived.size > 0) compaction(null, rows[rows.length - 1]!.rowId, []);
  return steps;
};
