import { isLedgerError, ledgerError, type Ledger, type LedgerError } from '@session-ledger/core';
import { buildImportPlan, type SessionImport } from './plan/importPlan.js';
import { countWritten, type ImportReport } from './report.js';
import { sourceOf } from './ledger/reconcile.js';
import { syncStream } from './ledger/syncStream.js';
import { plannedEvents } from './split/sessionEvents.js';
import type { HermesSource } from './source/hermesSource.js';

export interface SessionsOptions {
  dryRun?: boolean;
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}

/** A failure mid-run, restated with what was done so it is never left unreported. */
export const interrupted = (error: LedgerError, report: ImportReport, at: string | null, done: number, total: number): LedgerError => {
  const where = at === null ? `after ${done} of ${total} sessions` : `at session ${at} after ${done} of ${total} sessions`;
  const progress = `import stopped ${where} (${report.events} events written); run it again to resume`;
  return ledgerError(error.type, `${error.message}; ${progress}`, error.details as never);
};

/**
 * Plans and syncs every session of the source, one lineage unit at a time, into the report. Units
 * are planned on their own (every lineage rule stays inside a unit), so only one unit is in memory.
 */
export const importSessions = async (ledger: Ledger, source: HermesSource, report: ImportReport, options: SessionsOptions): Promise<void> => {
  const total = source.messageCount;
  let done = 0;
  let index = 0;
  const units = source.units()[Symbol.iterator]();
  for (;;) {
    let next;
    try {
      next = units.next();
    } catch (error) {
      if (isLedgerError(error)) throw interrupted(error, report, null, index, source.sessionCount);
      throw error;
    }
    if (next.done) return;
    const plan = buildImportPlan(next.value);
    report.skipped.push(...plan.skipped);
    for (const item of plan.sessions) {
      let outcome;
      try {
        outcome = await syncStream(ledger, item.stream, plannedEvents(item), {
          dryRun: options.dryRun ?? false,
          batchSize: options.batchSize ?? 1000,
          source: sourceOf(item),
          onBatch: (batch) => {
            countWritten(report, batch);
            options.onProgress?.(done + batch.reduce((n, e) => n + e.rowIds.length, 0), total);
          },
        });
      } catch (error) {
        if (isLedgerError(error, 'invalid_input')) {
          report.skipped.push({ session: item.session.id, rows: item.rows.length, reason: `cannot be mapped: ${error.message}` });
          done += item.rows.length;
          index += 1;
          continue;
        }
        if (isLedgerError(error)) throw interrupted(error, report, item.session.id, index, source.sessionCount);
        throw error;
      }
      report.unchanged.events += outcome.existing;
      if (outcome.existing > 0 && outcome.written === 0 && outcome.kind === 'synced') report.unchanged.sessions += 1;
      if (outcome.existing > 0 && outcome.written > 0) report.updated += 1;
      if (outcome.kind === 'conflict') report.skipped.push({ session: item.session.id, rows: item.rows.length, reason: outcome.reason });
      done += item.rows.length;
      index += 1;
      options.onProgress?.(done, total);
    }
  }
};
