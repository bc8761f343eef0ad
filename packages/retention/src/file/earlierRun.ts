import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { sha256Hex, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import type { Coverage } from '../coverage/coverage.js';
import { DELETION_EVENT } from '../delete/audit.js';
import { readAuditLog } from '../delete/auditLog.js';
import type { ExportResult } from '../exportSession.js';
import type { Manifest } from '../manifest.js';
import type { ResolvedExport } from '../options.js';
import { prepareExport, type PreparedExport } from '../prepareExport.js';
import { manifestOfBytes } from './verifyFile.js';

/**
 * `export --delete-after-verified` run again after an earlier run of it was killed: the two windows
 * where that run left no open intent to resume (resumeExport.ts handles the one between). Both
 * answered exit 1 before, so the documented recovery, "run the same command again", failed there
 * (outside test, session 24).
 */

const fileManifest = (format: Manifest['format'], bytes: Buffer): Manifest | null => {
  try {
    return manifestOfBytes(format, bytes);
  } catch {
    return null;
  }
};

/**
 * Killed after its file was written, before its intent: the file at `out` is this very export if it
 * is, byte for byte, the render of the conversation as read now, dated as the file says it was
 * exported. Then it is taken as written (and read back and re-checked like a new one); null: no file
 * there, or another one, which is never overwritten.
 */
export const sameExportAt = async (out: string, coverage: Coverage, options: ResolvedExport): Promise<PreparedExport | null> => {
  const bytes = await readFile(out).catch(() => null);
  const manifest = bytes === null ? null : fileManifest(options.format, bytes);
  if (bytes === null || manifest === null || Number.isNaN(Date.parse(manifest.exportedAt))) return null;
  const again = prepareExport(coverage, { ...options, now: new Date(manifest.exportedAt) });
  return again.sha256 === sha256Hex(bytes) ? again : null;
};

/**
 * Killed after its outcome record (or simply run twice): the conversation is deleted, and an
 * export deletion recorded in the audit stream names `anyId`'s segment and this file, which still
 * reads back with the sha256 it names. Reported from the file, with nothing deleted by this run;
 * null when there is no such record or the file changed (the deleted session is then an error).
 */
export const completedExport = async (store: EventStore, anyId: string, out: string): Promise<ExportResult | null> => {
  const file = resolve(out);
  const stream = sessionStream(anyId);
  const record = (await readAuditLog(store)).findLast((event) => {
    const data = event.data as { reason?: unknown; streams?: Array<{ stream?: unknown }>; export?: { file?: unknown } | null };
    return event.type === DELETION_EVENT && data.reason === 'export' && data.export?.file === file && (data.streams ?? []).some((each) => each.stream === stream);
  });
  if (!record) return null;
  const exported = (record.data as { export: { format: Manifest['format']; fileSha256: string } }).export;
  const bytes = await readFile(file).catch(() => null);
  if (bytes === null || `sha256:${sha256Hex(bytes)}` !== exported.fileSha256) return null;
  const manifest = fileManifest(exported.format, bytes);
  if (manifest === null) return null;
  return resultFromManifest(file, manifest, exported.fileSha256, []);
};

/** An export's result as its file's manifest states it. */
export const resultFromManifest = (file: string, manifest: Manifest, fileSha256: string, deleted: string[]): ExportResult => ({
  file,
  format: manifest.format,
  view: manifest.view,
  digest: manifest.digest,
  streams: manifest.streams,
  deleted,
  fileSha256,
  messageCount: manifest.messageCount,
  filtered: manifest.filtered,
});
