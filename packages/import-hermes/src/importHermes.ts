import type { Budgets } from '@session-ledger/memory';
import { ATTR, spanned, createLedger, isLedgerError, ledgerError, type EventStore } from '@session-ledger/core';
import { importSessions } from './importSessions.js';
import { noLongerInSource, readReceipt, receiptStream, recordReceipt, sourceKey } from './ledger/receipt.js';
import { isAnotherUnderSameId } from './ledger/reconcile.js';
import type { StoreOpener } from './split/protocol.js';
import { splitSessions } from './split/splitSessions.js';
import { checkMemoryProfile, importMemory } from './memory/importMemory.js';
import { readMemoryDir } from './memory/readMemoryDir.js';
import { emptyReport, type ImportReport } from './report.js';
import type { HermesSource } from './source/hermesSource.js';
import { openHermesSource } from './source/openHermesSource.js';
import { snapshotSource } from './source/snapshotSource.js';
import type { HermesSnapshot } from './model.js';

export interface ImportOptions {
  /** The Hermes state.db; opened read-only. */
  path: string;
  /** A Hermes `memories` directory (MEMORY.md, USER.md). */
  memoriesDir?: string;
  /** The memory profile the entries go to. Default `default`. */
  profile?: string;
  /** The memory ledger's budgets the imported entries must fit (DEFAULT_BUDGETS where not given). */
  memoryBudgets?: Partial<Budgets>;
  /** Plan and count, write nothing. */
  dryRun?: boolean;
  /** Events per conditional append. Default 1000. */
  batchSize?: number;
  busyTimeoutMs?: number;
  /** Hermes rows handled so far, of the total. */
  onProgress?: (done: number, total: number) => void;
  /** Import this snapshot of `path` (read with readSnapshot) instead of reading the file. */
  snapshot?: HermesSnapshot;
  /**
   * Import from this open source (openHermesSource) instead of opening the file: the caller keeps its
   * read transaction open across the import and a `verifyHermes` of the same snapshot, then closes it.
   */
  source?: HermesSource;
  /**
   * Append on a second thread, through a store of its own on the same ledger, opened as this says
   * (splitSessions): this thread reads, plans and builds the events, the worker writes them. Same
   * ledger, bytes and report as one thread. Without it (or in a dry run) everything runs on this
   * thread, through `store`, which also takes the memory entries either way.
   */
  appendThread?: StoreOpener;
}

/**
 * Imports a Hermes state.db (and optionally its memory files) into the store. The source is read in
 * one snapshot, one lineage unit at a time (memory holds one unit, not the file); every session
 * stream is brought up to the plan with deterministic event ids and exact expected revisions, so
 * running it again adds only what is new, and an interrupted run resumes.
 */
const importHermesUntraced = async (store: EventStore, options: ImportOptions): Promise<ImportReport> => {
  const dryRun = options.dryRun ?? false;
  const report = emptyReport(options.path, dryRun);
  // Arguments, memory files and the file's schema are checked before anything is written.
  const profile = checkMemoryProfile(options.profile ?? 'default');
  const memoryFiles = options.memoriesDir === undefined ? null : readMemoryDir(options.memoriesDir);
  const given = options.source ?? (options.snapshot ? snapshotSource(options.snapshot) : null);
  const opened = given === null ? openHermesSource(options.path, { busyTimeoutMs: options.busyTimeoutMs }) : null;
  const source = given ?? opened!;
  const ledger = createLedger(store);
  let present: string[] = [];
  try {
    report.source = { path: options.path, schemaVersion: source.schema.version, sessions: source.sessionCount, messages: source.messageCount };
    for (const orphan of source.orphans()) {
      report.skipped.push({ session: orphan.sessionId, rows: orphan.rows, reason: 'messages whose session row is missing', intended: true });
    }
    if (options.appendThread !== undefined && !dryRun) await splitSessions(store, source, report, { ...options, opener: options.appendThread });
    else await importSessions(ledger, source, report, options);
    present = source.sessionIds();
  } finally {
    opened?.close();
  }
  // Only after every session was brought in: an interrupted run records nothing, so its re-run reports the same.
  const key = sourceKey(options.path);
  const receipt = receiptStream(key);
  const received = await readReceipt(store, receipt);
  // A session Hermes deleted and re-created under the same id: the file has the id, not the conversation the ledger holds under it (helper-89 F3).
  const replaced = new Set(report.skipped.flatMap((skip) => (skip.session !== undefined && isAnotherUnderSameId(skip.reason) ? [skip.session] : [])));
  report.noLongerInSource = await noLongerInSource(store, received, new Set(present.filter((id) => !replaced.has(id))));
  // A session the import refused (a conflict, or one it cannot map) did not come into the ledger from
  // this file: recorded, a later deletion in Hermes listed the ledger's own session of that id as one
  // the file had brought (outside test, session 30). It is recorded once an import brings it in.
  const refused = new Set(report.skipped.flatMap((skip) => (skip.session !== undefined && !skip.intended ? [skip.session] : [])));
  if (!dryRun) await recordReceipt(ledger, receipt, key, received, present.filter((id) => !refused.has(id)));
  if (memoryFiles !== null) {
    let memory;
    try {
      memory = await importMemory(ledger, memoryFiles, profile, dryRun, options.memoryBudgets);
    } catch (error) {
      if (!isLedgerError(error)) throw error;
      const progress = `every session was imported (${report.events} events written) but no memory entry; run it again to finish`;
      throw ledgerError(error.type, `${error.message}; ${progress}`, error.details as never);
    }
    report.memoryEntries = memory.written;
    report.unchanged.memoryEntries = memory.found - memory.written - memory.notAgain;
    report.skipped.push(...memory.skipped);
  }
  return report;
};

/** The public entry: `importHermesUntraced` in a `session-ledger.import_hermes` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const importHermes = spanned('session-ledger.import_hermes', importHermesUntraced, ([_store, options]) => ({ 'session_ledger.file': options.path, 'session_ledger.dry_run': Boolean(options.dryRun) }), (report) => ({ [ATTR.count]: report.events, 'session_ledger.sessions': report.sessions }));
