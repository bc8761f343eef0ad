import { readFile } from 'node:fs/promises';
import { ATTR, spanned, deterministicId, hashOf, isLedgerError, ledgerError, streamDeleted, type EventStore, type Ledger } from '@session-ledger/core';
import { AUDIT_STREAM } from '../delete/audit.js';
import type { ManifestStream } from '../manifest.js';
import { parseJsonlExport } from './parseJsonl.js';

export interface ImportResult {
  file: string;
  rootId: string;
  digest: string;
  streams: ManifestStream[];
  events: number;
}

/** Whether the store holds anything under `stream`: written, soft-deleted or tombstoned. */
const exists = async (store: EventStore, stream: string): Promise<'absent' | 'exists' | 'deleted'> => {
  if (store.streamState) {
    const state = await store.streamState(stream);
    return state === null ? 'absent' : state.tombstoned ? 'deleted' : 'exists';
  }
  try {
    await store.readStream(stream, { maxCount: 1 });
    return 'exists';
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return 'absent';
    if (isLedgerError(error, 'stream_deleted')) return 'deleted';
    throw error;
  }
};

const alreadyThere = (stream: string) =>
  ledgerError('duplicate', `Stream ${stream} already exists in this store: import restores streams only into a store that lacks them`, { what: `stream ${stream}` });

/**
 * `sessions import FILE`: restores the streams of a jsonl export with the same ids, revisions,
 * metadata and hashes (the chain travels as is), then verifies each restored chain and records
 * the import in the audit stream. Refuses a store that holds any of the streams, before writing.
 */
const importJsonlUntraced = async (ledger: Ledger, path: string, options: { now?: Date } = {}): Promise<ImportResult> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw ledgerError('import_source_invalid', `Cannot read ${path}: ${(error as Error).message}`, { path, reason: 'not_found' });
  }
  const parsed = parseJsonlExport(path, text);
  const store = ledger.store;
  for (const stream of parsed.streams.keys()) {
    const state = await exists(store, stream);
    if (state === 'deleted') throw streamDeleted(stream);
    if (state === 'exists') throw alreadyThere(stream);
  }
  for (const [stream, events] of parsed.streams) {
    const data = events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }));
    try {
      await store.appendToStream(stream, data, { expectedRevision: 'no_stream' });
    } catch (error) {
      if (isLedgerError(error, 'wrong_expected_version')) throw alreadyThere(stream);
      throw error;
    }
    const report = await ledger.verify({ stream });
    if (report.broken) {
      const { revision, expected, found } = report.broken;
      throw ledgerError('chain_broken', `Restored ${stream} does not verify at revision ${revision}`, { stream, revision: revision.toString(), expected, found });
    }
  }
  const streams = [...parsed.streams].map(([stream, events]) => {
    const last = events[events.length - 1]!;
    return { stream, revision: Number(last.revision), chainHead: hashOf(last) };
  });
  await ledger.append(AUDIT_STREAM, [
    {
      id: deterministicId('retention.imported', parsed.manifest.digest),
      type: 'retention.imported',
      data: { rootId: parsed.manifest.rootId, digest: parsed.manifest.digest, streams, file: path, at: (options.now ?? new Date()).toISOString() },
    },
  ]);
  return { file: path, rootId: parsed.manifest.rootId, digest: parsed.manifest.digest, streams, events: parsed.events };
};

/** The public entry: `importJsonlUntraced` in a `session-ledger.import` span (a no-op unless the host registers an OpenTelemetry SDK). */
export const importJsonl = spanned('session-ledger.import', importJsonlUntraced, ([_ledger, path]) => ({ 'session_ledger.file': path }), (result) => ({ [ATTR.stream]: result.streams[0]?.stream ?? '', [ATTR.revision]: result.streams[0]?.revision ?? -1, [ATTR.count]: result.events }));
