import { resolve } from 'node:path';
import { ATTR, isLedgerError, spanned, withRetry, type Ledger, type RetryPolicy } from '@session-ledger/core';
import { completedExport, sameExportAt } from './file/earlierRun.js';
import { intentsCovering, pendingIntents } from './delete/intents.js';
import { resumeExport } from './resumeExport.js';
import type { Coverage } from './coverage/coverage.js';
import { readCoverage } from './coverage/readCoverage.js';
import { streamDrift } from './delete/compare.js';
import { deleteCovered } from './delete/deleteCovered.js';
import { assertIdle, liveTurnIn } from './delete/liveLease.js';
import { displayLeavesOut, driftError, filteredCannotDelete, withNote } from './errors.js';
import { exportAttributes, resultOf, type ExportResult } from './exportSession.js';
import { verifyWritten } from './file/verifyFile.js';
import { writeDurably } from './file/writeDurably.js';
import { resolveExport } from './options.js';
import { contentOf, prepareExport, type PreparedExport } from './prepareExport.js';
import { contentDigest } from './view/digest.js';
import { headsDrift } from './delete/recheck.js';

/**
 * How step 3 re-reads before deleting. heads (default): each covered stream's head at the exported
 * revision and its chain hash (a commitment to every event, hence to the view); full: the whole
 * conversation read, folded and digested again.
 */
export type Recheck = 'heads' | 'full';
import type { ExportOptions } from './types.js';
import { cannotDeleteActive } from './errors.js';

/** The rewound messages of the covered segments: kept by the raw view only (the display and active views leave them out). */
const rewoundCovered = (coverage: Coverage): number => {
  let count = 0;
  for (const conversation of coverage.conversations) {
    if (conversation.loaded.state.rewoundMessages === 0) continue;
    const covered = new Set(conversation.segments.map((segment) => segment.sessionId));
    for (const message of conversation.loaded.state.messages) if (message.rewound !== undefined && covered.has(message.sessionId)) count += 1;
  }
  return count;
};

/** Step 3, full: the conversation read again through the same retrying reads must be the one exported, stream by stream and digest for digest. */
const checkUnchanged = (prepared: PreparedExport, again: Coverage, now: Date): void => {
  const drift = streamDrift(prepared.coverage, again);
  if (drift) {
    const live = liveTurnIn(again, now);
    if (live) throw cannotDeleteActive(again.requestedId, live.turn, live.conversation.link === null ? null : live.conversation.rootId);
    throw drift;
  }
  const digest = contentDigest(contentOf(again, prepared.manifest));
  if (digest !== prepared.manifest.digest) {
    throw driftError(prepared.manifest.streams[0]!.stream, prepared.manifest.digest, digest, 'the view content differs from the export');
  }
};

/**
 * export --delete-after-verified: (1) one read of the conversation and the live-lease guard on it;
 * (2) render, write durably, read back and check bytes and digest; (3) read again and compare
 * (the heads and chain hashes of every covered stream, or with recheck 'full' the whole view digest);
 * (4) record the intent in the audit stream, tombstone every covered stream conditionally on the
 * revision in the manifest, then record the outcome. Any drift keeps the session and leaves the
 * export file as written. Run again after it was killed between tombstones, it completes that
 * deletion (resumeExport); killed before its intent or after its outcome, it takes its own file or
 * reports its own recorded deletion (file/earlierRun.ts).
 */
const exportAndDeleteUntraced = async (
  ledger: Ledger,
  anyId: string,
  options: ExportOptions & { out: string; retry?: RetryPolicy; recheck?: Recheck },
): Promise<ExportResult> => {
  const resolved = resolveExport(options);
  if (resolved.only !== null) throw filteredCannotDelete();
  const pending = intentsCovering(await withRetry(() => pendingIntents(ledger.store), options.retry), anyId);
  if (pending.length > 0) {
    const onDeleted = (done: number, total: number) => options.onProgress?.('delete', done, total);
    return resumeExport(ledger, pending, { id: anyId, out: options.out, now: resolved.now, retry: options.retry, onDeleted });
  }
  const coverage = await readCoverage(ledger.store, anyId, { lineage: resolved.lineage, retry: options.retry }).catch(async (error: unknown) => {
    // deleted: by this same command, run before (earlier run killed after its outcome record, or run twice)?
    const done = isLedgerError(error, 'session_deleted') ? await completedExport(ledger.store, anyId, options.out) : null;
    if (done === null) throw error;
    return done;
  });
  if (!('conversations' in coverage)) return coverage;
  assertIdle(coverage, resolved.now);
  if (resolved.view === 'display') {
    const rewound = rewoundCovered(coverage);
    if (rewound > 0) throw displayLeavesOut(rewound);
  }
  const earlier = await sameExportAt(options.out, coverage, resolved);
  const prepared = earlier ?? prepareExport(coverage, resolved);
  options.onProgress?.('render', prepared.manifest.messageCount, prepared.manifest.messageCount);
  const file = earlier ? resolve(options.out) : await writeDurably(options.out, prepared.bytes);
  const kept = `the session was kept and the export stays at ${file}`;
  try {
    const sha = await verifyWritten(file, prepared, { restorable: true });
    options.onProgress?.('verify', 1, 2);
    const reread = () => readCoverage(ledger.store, anyId, { lineage: resolved.lineage, retry: options.retry });
    if (options.recheck === 'full') checkUnchanged(prepared, await reread(), resolved.now);
    else {
      const drift = await headsDrift(ledger.store, coverage, options.retry);
      if (drift) {
        // say whether a live turn moved it, and where each stream is now (best effort: the drift stands either way)
        const again = await reread().catch(() => null);
        if (again) checkUnchanged(prepared, again, resolved.now);
        throw drift;
      }
    }
    options.onProgress?.('verify', 2, 2);
    const deleted = await deleteCovered(ledger, coverage, {
      reason: 'export',
      now: resolved.now,
      retry: options.retry,
      export: { file, format: prepared.manifest.format, view: prepared.manifest.view, digest: prepared.manifest.digest, fileSha256: sha },
      onDeleted: (done, total) => options.onProgress?.('delete', done, total),
    });
    return resultOf(prepared, file, sha, deleted);
  } catch (error) {
    const type = (error as { type?: string }).type;
    // The same command again meets that file and is refused (an export is never overwritten): say what to do (outside test, session 29).
    const again = type === 'drift' || type === 'precondition_failed' ? '; to export and delete the session as it is now, remove that file or choose another --out' : '';
    throw withNote(error, type === 'partial_deletion' ? `the export stays at ${file}` : `${kept}${again}`);
  }
};

/** The public entry: `exportAndDeleteUntraced` in a `session-ledger.export_and_delete` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const exportAndDelete = spanned('session-ledger.export_and_delete', exportAndDeleteUntraced, ([_ledger, anyId, options]) => ({ [ATTR.session]: anyId, 'session_ledger.format': options.format }), (result) => ({ ...exportAttributes(result), 'session_ledger.deleted': result.deleted.length }));
