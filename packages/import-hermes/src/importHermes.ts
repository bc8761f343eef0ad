import { ATTR, spanned, createLedger, isLedgerError, ledgerError, type EventStore, type LedgerError } from '@session-ledger/core';
import { stepEvent, stepId } from './mapping/stepEvent.js';
import { checkMemoryProfile, importMemory } from './memory/importMemory.js';
import { readMemoryDir } from './memory/readMemoryDir.js';
import { buildImportPlan, type SessionImport } from './plan/importPlan.js';
import { countWritten, emptyReport, type ImportReport } from './report.js';
import { syncStream, type LazyEvent } from './ledger/syncStream.js';
import { readSnapshot } from './source/readSnapshot.js';
import type { HermesSnapshot } from './model.js';

export interface ImportOptions {
  /** The Hermes state.db; opened read-only. */
  path: string;
  /** A Hermes `memories` directory (MEMORY.md, USER.md). */
  memoriesDir?: string;
  /** The memory profile the entries go to. Default `default`. */
  profile?: string;
  /** Plan and count, write nothing. */
  dryRun?: boolean;
  /** Events per conditional append. Default 1000. */
  batchSize?: number;
  busyTimeoutMs?: number;
  /** Hermes rows handled so far, of the total. */
  onProgress?: (done: number, total: number) => void;
  /** Import this snapshot of `path` (read with readSnapshot) instead of reading the file. */
  snapshot?: HermesSnapshot;
}

const plannedEvents = (item: SessionImport): LazyEvent[] =>
  item.steps.flatMap((step) => {
    const id = stepId(item.stream, step);
    return id === null ? [] : [{ id, kind: step.kind, build: () => stepEvent(item.stream, step, item.session)! }];
  });

/** A store failure mid-run, restated with what was done so it is never left unreported. */
const interrupted = (error: LedgerError, report: ImportReport, at: string, done: number, total: number): LedgerError => {
  const progress = `import stopped at session ${at} after ${done} of ${total} sessions (${report.events} events written); run it again to resume`;
  return ledgerError(error.type, `${error.message}; ${progress}`, error.details as never);
};

/**
 * Imports a Hermes state.db (and optionally its memory files) into the store. The source is read in
 * one snapshot before anything is written; every session stream is brought up to the plan with
 * deterministic event ids and exact expected revisions, so running it again adds only what is new.
 */
const importHermesUntraced = async (store: EventStore, options: ImportOptions): Promise<ImportReport> => {
  const dryRun = options.dryRun ?? false;
  const report = emptyReport(options.path, dryRun);
  // Everything is read (and every argument checked) before anything is written.
  const profile = checkMemoryProfile(options.profile ?? 'default');
  const memoryFiles = options.memoriesDir === undefined ? null : readMemoryDir(options.memoriesDir);
  const snapshot = options.snapshot ?? readSnapshot(options.path, { busyTimeoutMs: options.busyTimeoutMs });
  report.source = { path: options.path, schemaVersion: snapshot.schema.version, sessions: snapshot.sessions.length, messages: snapshot.messageCount };
  const plan = buildImportPlan(snapshot);
  report.skipped.push(...plan.skipped);
  const ledger = createLedger(store);
  const total = snapshot.messageCount;
  let done = 0;
  let index = 0;
  for (const item of plan.sessions) {
    let outcome;
    try {
      outcome = await syncStream(ledger, item.stream, plannedEvents(item), {
        dryRun,
        batchSize: options.batchSize ?? 1000,
        onBatch: (batch) => options.onProgress?.(done + batch.reduce((n, e) => n + e.rowIds.length, 0), total),
      });
    } catch (error) {
      if (isLedgerError(error, 'invalid_input')) {
        report.skipped.push({ session: item.session.id, rows: item.rows.length, reason: `cannot be mapped: ${error.message}` });
        done += item.rows.length;
        index += 1;
        continue;
      }
      if (isLedgerError(error)) throw interrupted(error, report, item.session.id, index, plan.sessions.length);
      throw error;
    }
    countWritten(report, outcome.written);
    report.unchanged.events += outcome.existing;
    if (outcome.existing > 0 && outcome.written.length === 0 && outcome.kind === 'synced') report.unchanged.sessions += 1;
    if (outcome.existing > 0 && outcome.written.length > 0) report.updated += 1;
    if (outcome.kind === 'conflict') {
      report.skipped.push({ session: item.session.id, rows: item.rows.length, reason: outcome.reason });
    }
    done += item.rows.length;
    index += 1;
    options.onProgress?.(done, total);
  }
  if (memoryFiles !== null) {
    let memory;
    try {
      memory = await importMemory(ledger, memoryFiles, profile, dryRun);
    } catch (error) {
      if (!isLedgerError(error)) throw error;
      const progress = `every session was imported (${report.events} events written) but no memory entry; run it again to finish`;
      throw ledgerError(error.type, `${error.message}; ${progress}`, error.details as never);
    }
    report.memoryEntries = memory.written;
    report.unchanged.memoryEntries = memory.found - memory.written;
    report.skipped.push(...memory.skipped);
  }
  return report;
};

/** The public entry: `importHermesUntraced` in a `session-ledger.import_hermes` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const importHermes = spanned('session-ledger.import_hermes', importHermesUntraced, ([_store, options]) => ({ 'session_ledger.file': options.path, 'session_ledger.dry_run': Boolean(options.dryRun) }), (report) => ({ [ATTR.count]: report.events, 'session_ledger.sessions': report.sessions }));
