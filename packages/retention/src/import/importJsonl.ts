import { readFile } from 'node:fs/promises';
import { ATTR, spanned, deterministicId, hashOf, isLedgerError, ledgerError, type Ledger, type RecordedEvent } from '@session-ledger/core';
import { AUDIT_STREAM } from '../delete/audit.js';
import { readAuditLog } from '../delete/auditLog.js';
import type { ManifestStream } from '../manifest.js';
import { parseJsonlExport } from './parseJsonl.js';
import { alreadyThere, storedPrefix } from './storedPrefix.js';

export const IMPORT_EVENT = 'retention.imported';

export interface ImportResult {
  file: string;
  rootId: string;
  digest: string;
  streams: ManifestStream[];
  /** Events in the file. */
  events: number;
  /** Events an earlier, interrupted run of the same import had already stored (not written again). */
  resumed: number;
}

export interface ImportOptions {
  now?: Date;
  /** Events per append (each one conditional on the revision the previous one reached); default 500. */
  chunk?: number;
  onProgress?: (done: number, total: number) => void;
}

const appendRest = async (ledger: Ledger, stream: string, events: RecordedEvent[], from: number, chunk: number, progress: (count: number) => void) => {
  for (let start = from; start < events.length; start += chunk) {
    const batch = events.slice(start, start + chunk).map(({ id, type, data, metadata }) => ({ id, type, data, metadata }));
    try {
      await ledger.store.appendToStream(stream, batch, { expectedRevision: start === 0 ? 'no_stream' : BigInt(start - 1) });
    } catch (error) {
      if (isLedgerError(error, 'wrong_expected_version')) throw alreadyThere(stream, 'was written by someone else during the import');
      throw error;
    }
    progress(batch.length);
  }
  const report = await ledger.verify({ stream });
  if (report.broken) {
    const { revision, expected, found } = report.broken;
    throw ledgerError('chain_broken', `Restored ${stream} does not verify at revision ${revision}`, { stream, revision: revision.toString(), expected, found });
  }
};

/**
 * `sessions import FILE`: restores the streams of a jsonl export with the same ids, revisions,
 * metadata and hashes (the chain travels as is), in chunks, verifies each restored chain, then
 * records the import in the audit stream. Before writing it checks every stream: absent, or
 * holding exactly the file's first events (what an interrupted run of this import stored: it
 * continues from there); anything else refuses (`duplicate`, `stream_deleted`) and nothing is
 * written. A file whose streams are all whole and whose import is audited is `duplicate`.
 */
const importJsonlUntraced = async (ledger: Ledger, path: string, options: ImportOptions = {}): Promise<ImportResult> => {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw ledgerError('import_source_invalid', `Cannot read ${path}: ${(error as Error).message}`, { path, reason: 'not_found' });
  }
  const parsed = parseJsonlExport(path, bytes);
  const store = ledger.store;
  const done = new Map<string, number>();
  for (const [stream, events] of parsed.streams) done.set(stream, await storedPrefix(store, stream, events));
  const resumed = [...done.values()].reduce((sum, count) => sum + count, 0);
  const auditId = deterministicId(IMPORT_EVENT, parsed.manifest.digest);
  const audited = (await readAuditLog(store)).some((event) => event.id === auditId);
  if (audited && resumed === parsed.events) throw alreadyThere([...parsed.streams.keys()][0]!, `and every other stream of ${path} were already imported`);
  const chunk = options.chunk ?? 500;
  let written = resumed;
  for (const [stream, events] of parsed.streams) {
    await appendRest(ledger, stream, events, done.get(stream)!, chunk, (count) => {
      written += count;
      options.onProgress?.(written, parsed.events);
    });
  }
  const streams = [...parsed.streams].map(([stream, events]) => {
    const last = events[events.length - 1]!;
    return { stream, revision: Number(last.revision), chainHead: hashOf(last) };
  });
  if (!audited) {
    const data = { rootId: parsed.manifest.rootId, digest: parsed.manifest.digest, streams, file: path, at: (options.now ?? new Date()).toISOString() };
    // Its id derives from the file's digest: another run of this import at once (a second process)
    // recorded it first, with its own time and path. That run's import stands; this one is refused
    // as a re-run after it is.
    let written: boolean | undefined;
    try {
      ({ written } = await ledger.append(AUDIT_STREAM, [{ id: auditId, type: IMPORT_EVENT, data }]));
    } catch (error) {
      if (!isLedgerError(error, 'duplicate')) throw error;
      written = false;
    }
    if (written === false) throw alreadyThere([...parsed.streams.keys()][0]!, `and every other stream of ${path} were imported by another run at the same time`);
  }
  return { file: path, rootId: parsed.manifest.rootId, digest: parsed.manifest.digest, streams, events: parsed.events, resumed };
};

/** The public entry: `importJsonlUntraced` in a `session-ledger.import` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const importJsonl = spanned('session-ledger.import', importJsonlUntraced, ([_ledger, path]) => ({ 'session_ledger.file': path }), (result) => ({ [ATTR.stream]: result.streams[0]?.stream ?? '', [ATTR.revision]: result.streams[0]?.revision ?? -1, [ATTR.count]: result.events }));
