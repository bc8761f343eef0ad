import type { HermesSnapshot } from '../model.js';
import { displayHistory } from '../plan/displayHistory.js';
import type { ImportPlan } from '../plan/importPlan.js';
import { sourceItem, type Side } from './items.js';

/** Rows the import turns into summaries (of a compaction or a compression), not messages. */
const summaryRows = (plan: ImportPlan): Set<number> => {
  const out = new Set<number>();
  for (const item of plan.sessions) {
    for (const step of item.steps) {
      if (step.kind === 'compaction' && step.summaryRow && step.messageIds.length > 0) out.add(step.summaryRow.rowId);
      if (step.kind === 'start' && step.summary?.row && item.link === 'compression') out.add(step.summary.row.rowId);
    }
  }
  return out;
};

/**
 * Hermes' display history of each logical conversation (root, then its compression segments):
 * each segment's rows that are active or compacted, one per logical message, in id order; summary
 * rows apart, in order, non-empty.
 */
export const sourceConversations = (snapshot: HermesSnapshot, plan: ImportPlan): Map<string, Side> => {
  const summaries = summaryRows(plan);
  const out = new Map<string, Side>();
  for (const item of plan.sessions) {
    const side = out.get(item.rootId) ?? { messages: [], summaries: [] };
    out.set(item.rootId, side);
    for (const row of displayHistory(snapshot.messages.get(item.session.id) ?? [])) {
      if (summaries.has(row.rowId)) {
        if (row.content) side.summaries.push(row.content);
      } else side.messages.push(sourceItem(row));
    }
  }
  return out;
};
