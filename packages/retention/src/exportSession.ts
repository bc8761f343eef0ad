import { ATTR, spanned } from '@session-ledger/core';
import type { EventStore, RetryPolicy } from '@session-ledger/core';
import { readCoverage } from './coverage/readCoverage.js';
import { verifyWritten } from './file/verifyFile.js';
import { writeDurably } from './file/writeDurably.js';
import type { ManifestStream } from './manifest.js';
import { resolveExport } from './options.js';
import { prepareExport, type PreparedExport } from './prepareExport.js';
import type { ExportFormat, ExportOptions, ExportView } from './types.js';

/** What every export reports (the CLI's --json form). */
export interface ExportResult {
  /** The absolute path written, or null when the export was returned in memory only. */
  file: string | null;
  format: ExportFormat;
  view: ExportView;
  digest: string;
  streams: ManifestStream[];
  /** Stream names deleted after verification (empty for a plain export). */
  deleted: string[];
  /** sha256 of the file's bytes as read back. */
  fileSha256: string | null;
  messageCount: number;
  filtered: boolean;
}

export const resultOf = (prepared: PreparedExport, file: string | null, fileSha256: string | null, deleted: string[] = []): ExportResult => ({
  file,
  format: prepared.manifest.format,
  view: prepared.manifest.view,
  digest: prepared.manifest.digest,
  streams: prepared.manifest.streams,
  deleted,
  fileSha256,
  messageCount: prepared.manifest.messageCount,
  filtered: prepared.manifest.filtered,
});

/** Span attributes of an export: its first stream and that stream's revision, the message count. */
export const exportAttributes = (result: ExportResult) => ({
  [ATTR.stream]: result.streams[0]?.stream ?? '',
  [ATTR.revision]: result.streams[0]?.revision ?? -1,
  [ATTR.count]: result.messageCount,
  'session_ledger.streams': result.streams.length,
});

/**
 * Exports a conversation by any of its ids. With `out`, the file is written durably (temp file,
 * fsync, link into place, fsync of the directory; an existing file is never replaced) and read back.
 */
const exportSessionUntraced = async (
  store: EventStore,
  anyId: string,
  options: ExportOptions & { out?: string; retry?: RetryPolicy },
): Promise<ExportResult & { bytes: Buffer }> => {
  const resolved = resolveExport(options);
  const coverage = await readCoverage(store, anyId, { lineage: resolved.lineage, retry: options.retry });
  options.onProgress?.('read', coverage.streams.length, coverage.streams.length);
  const prepared = prepareExport(coverage, resolved);
  options.onProgress?.('render', prepared.manifest.messageCount, prepared.manifest.messageCount);
  if (options.out === undefined) return { ...resultOf(prepared, null, null), bytes: prepared.bytes };
  const file = await writeDurably(options.out, prepared.bytes);
  const sha = await verifyWritten(file, prepared);
  return { ...resultOf(prepared, file, sha), bytes: prepared.bytes };
};

/** The public entry: `exportSessionUntraced` in a `session-ledger.export` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const exportSession = spanned('session-ledger.export', exportSessionUntraced, ([_store, anyId, options]) => ({ [ATTR.session]: anyId, 'session_ledger.format': options.format }), exportAttributes);
