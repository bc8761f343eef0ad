import { ATTR, spanned, createLedger, illFormedMessage, illFormedPath, invalidInput, isLedgerError, ledgerError, type EventStore, type LedgerError } from '@session-ledger/core';
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

/**
 * Every event of one session, built before any of it is written. A row holding a string that is not
 * well-formed UTF-16 (a lone surrogate, e.g. a `\udcff` escape in its JSON) refuses the whole
 * session, naming it and the row: stores keep UTF-8, so the text would be stored as U+FFFD, and a
 * repaired row would be a message Hermes never held. The operator fixes the row and imports again.
 */
const plannedEvents = (item: SessionImport): LazyEvent[] =>
  item.steps.flatMap((step) => {
    const id = stepId(item.stream, step);
    if (id === null) return [];
    const event = stepEvent(item.stream, step, item.session)!;
    const illFormed = illFormedPath(event.data, 'data') ?? illFormedPath(event.metadata, 'metadata');
    if (illFormed !== null) {
      const rows = event.rowIds.length > 0 ? `message row ${event.rowIds.join(', ')}` : 'its session row';
      throw invalidInput(`Hermes session ${item.session.id}, ${rows}: ${illFormedMessage(`the ${illFormed} of its ${event.type} event`)} (fix the row, then import again)`);
    }
    return [{ id, kind: step.kind, build: () => event }];
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
