import type { HermesSnapshot } from '../model.js';
import { readContent, SESSION_META } from '../mapping/hermesRead.js';
import { displayHistory } from '../plan/displayHistory.js';
import { reviewHarnessRows } from '../plan/historySteps.js';
import type { ImportPlan } from '../plan/importPlan.js';
import { sourceItem, type Side } from './items.js';

/**
 * Rows the import turns into summaries (of a compaction or a compression): `true` when the row is
 * only a summary, `false` when it is a summary and a message (a row carrying the summary text where
 * Hermes wrote it).
 */
const summaryRows = (plan: ImportPlan): Map<number, boolean> => {
  const out = new Map<number, boolean>();
  for (const item of plan.sessions) {
    for (const step of item.steps) {
      if (step.kind === 'compaction' && step.summaryRow && step.messageIds.length > 0) out.set(step.summaryRow.rowId, !step.inline);
      if (step.kind === 'start' && step.summary?.row && item.link === 'compression') out.set(step.summary.row.rowId, !step.summary.inline);
    }
  }
  return out;
};

/**
 * Hermes' display history of each logical conversation (root, then its compression segments):
 * each segment's rows that are active or compacted, one per logical message, in id order, read as
 * Hermes reads them, background-review harness rows and the gateway's `session_meta` header left out (as Hermes strips them); summary rows
 * apart, in order, non-empty.
 */
export const sourceConversations = (snapshot: HermesSnapshot, plan: ImportPlan): Map<string, Side> => {
  const summaries = summaryRows(plan);
  const out = new Map<string, Side>();
  for (const item of plan.sessions) {
    const side = out.get(item.rootId) ?? { messages: [], summaries: [] };
    out.set(item.rootId, side);
    const rows = snapshot.messages.get(item.session.id) ?? [];
    const harness = reviewHarnessRows(rows);
    for (const row of displayHistory(rows)) {
      if (harness.has(row.rowId) || row.role === SESSION_META) continue;
      const onlySummary = summaries.get(row.rowId);
      if (onlySummary !== undefined) {
        const text = readContent(row.role, row.content).content;
        if (text) side.summaries.push(text);
      }
      if (onlySummary !== true) side.messages.push(sourceItem(row));
    }
  }
  return out;
};
