import type { HermesMessage, HermesSession } from '../model.js';
import { displayDuplicates } from './displayHistory.js';
import type { ChildKind } from './lineage.js';

/**
 * One session's history as ordered steps, independent of the ledger's event types. The order is
 * Hermes' insertion order (messages.id); compaction and rewind steps sit where Hermes made them, so
 * the plan of a newer copy of the file extends the plan of an older copy.
 */
export type PlanStep =
  | { kind: 'start'; session: HermesSession; lineage: { kind: ChildKind; parentId: string | null } }
  | {
      kind: 'message';
      message: HermesMessage;
      /** Displayed once already by an earlier row with the same logical message (legacy carried tail). */
      displayDuplicate: boolean;
    }
  | {
      kind: 'compaction';
      /** Rows summarized away (active = 0, compacted = 1), in id order. */
      archived: number[];
      /** The summary rows written by this compaction, which follow this step. */
      summaries: number[];
    }
  | {
      kind: 'rewind';
      rowIds: number[];
      /** carried_over: the originals of a tail copied past a compaction; rewound: taken back by the user. */
      reason: 'rewound' | 'carried_over';
    }
  | { kind: 'end'; endedAt: number; endReason: string | null };

const summariesFrom = (rows: HermesMessage[], index: number): number[] => {
  const out: number[] = [];
  for (let i = index; i < rows.length && rows[i]!.summary; i += 1) out.push(rows[i]!.rowId);
  return out;
};

export const sessionPlan = (
  session: HermesSession,
  lineage: { kind: ChildKind; parentId: string | null },
  rows: HermesMessage[],
): PlanStep[] => {
  const steps: PlanStep[] = [{ kind: 'start', session, lineage }];
  const duplicates = displayDuplicates(rows);
  let compacted: number[] = [];
  let rewound: number[] = [];
  const flush = (compactionAt: number | null) => {
    if (rewound.length > 0) {
      const reason = compactionAt !== null && compacted.length > 0 ? 'carried_over' : 'rewound';
      steps.push({ kind: 'rewind', rowIds: rewound, reason });
      rewound = [];
    }
    if (compactionAt !== null && compacted.length > 0) {
      steps.push({ kind: 'compaction', archived: compacted, summaries: compactionAt < 0 ? [] : summariesFrom(rows, compactionAt) });
      compacted = [];
    }
  };
  rows.forEach((row, index) => {
    const closesCompaction = row.summary || row.state === 'active';
    if (closesCompaction) flush(index);
    else if (row.state !== 'rewound') flush(null);
    steps.push({ kind: 'message', message: row, displayDuplicate: duplicates.has(row.rowId) });
    if (row.state === 'compacted') compacted.push(row.rowId);
    if (row.state === 'rewound') rewound.push(row.rowId);
  });
  flush(-1);
  if (session.endedAt !== null) steps.push({ kind: 'end', endedAt: session.endedAt, endReason: session.endReason });
  return steps;
};
