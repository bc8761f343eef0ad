import type { DeletionRecord, StreamState } from '@session-ledger/core';
import type { LogStatements } from './statements.js';
import { storedChainHash } from './tables.js';
import { leafAtPosition, logSize } from './tree.js';

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
  const firstLeaf = span.first === null ? null : leafAtPosition(sql, span.first, size);
  const lastLeaf = span.last === null ? null : leafAtPosition(sql, span.last, size);
  const record: DeletionRecord = {
    stream,
    kind: tombstone ? 'tombstone' : 'soft',
    fromRevision: from,
    headRevision: head,
    headHash: headRow ? storedChainHash(headRow) : null,
    firstLeaf,
    lastLeaf,
    logSize: size,
    at: new Date().toISOString(),
  };
  const leaf = (index: number | null) => (index === null ? null : BigInt(index));
  sql.insertDeletion.run(stream, record.kind, from, head, record.headHash, leaf(firstLeaf), leaf(lastLeaf), BigInt(size), record.at);
  return record;
};
