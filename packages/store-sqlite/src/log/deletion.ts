import type { DeletionRecord, StreamState } from '@session-ledger/core';
import type { LogStatements } from './statements.js';
import { storedChainHash } from './tables.js';
import { appendDeletionLeaf, leafAtPosition, logSize } from './tree.js';

/**
 * Records what a delete erases, in the delete's transaction and before its rows go: the stream's
 * head (revision and chain hash), the erased revisions, the first and last leaf they hold and the
 * log's size. Verify tells a leaf whose event is gone "erased by a recorded deletion" by it.
 */
export const recordDeletion = (sql: LogStatements, stream: string, state: StreamState | undefined, tombstone: boolean): DeletionRecord => {
  const head = state?.lastRevision ?? -1n;
  const from = state?.firstLive ?? 0n;
  const headRow = head >= from ? (sql.headEvent.get(stream, head) as Parameters<typeof storedChainHash>[0] | undefined) : undefined;
  const span = sql.streamSpan.get(stream) as { first: bigint | null; last: bigint | null };
  const size = logSize(sql);
  return writeDeletion(sql, {
    stream,
    kind: tombstone ? 'tombstone' : 'soft',
    fromRevision: from,
    headRevision: head,
    headHash: headRow ? storedChainHash(headRow) : null,
    firstLeaf: span.first === null ? null : leafAtPosition(sql, span.first, size),
    lastLeaf: span.last === null ? null : leafAtPosition(sql, span.last, size),
    at: new Date().toISOString(),
  });
};

/** Stores a deletion record and its leaf (the log's next), in the caller's transaction. */
export const writeDeletion = (sql: LogStatements, fields: Omit<DeletionRecord, 'id' | 'logSize'>): DeletionRecord => {
  const index = logSize(sql);
  const leaf = (at: number | null) => (at === null ? null : BigInt(at));
  const info = sql.insertDeletion.run(fields.stream, fields.kind, fields.fromRevision, fields.headRevision, fields.headHash, leaf(fields.firstLeaf), leaf(fields.lastLeaf), BigInt(index), fields.at);
  const id = BigInt(info.lastInsertRowid);
  appendDeletionLeaf(sql, id, { index, ...fields });
  return { id: Number(id), ...fields, logSize: index };
};
