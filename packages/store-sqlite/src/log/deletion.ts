import type { StreamState } from '@session-ledger/core';
import type { LogStatements } from './statements.js';
import { storedChainHash } from './tables.js';
import { leafAtPosition, logSize } from './tree.js';

/**
 * Records what a delete erases, in the delete's transaction and before its rows go: the stream's
 * head (revision and chain hash), the erased revisions, the first and last leaf they hold and the
 * log's size. Verify tells a leaf whose event is gone "erased by a recorded deletion" by it.
 */
export const recordDeletion = (sql: LogStatements, stream: string, state: StreamState | undefined, tombstone: boolean): void => {
  const head = state?.lastRevision ?? -1n;
  const from = state?.firstLive ?? 0n;
  const headRow = head >= from ? (sql.headEvent.get(stream, head) as Parameters<typeof storedChainHash>[0] | undefined) : undefined;
  const span = sql.streamSpan.get(stream) as { first: bigint | null; last: bigint | null };
  const size = logSize(sql);
  const firstLeaf = span.first === null ? null : leafAtPosition(sql, span.first, size);
  const lastLeaf = span.last === null ? null : leafAtPosition(sql, span.last, size);
  sql.insertDeletion.run(
    stream,
    tombstone ? 'tombstone' : 'soft',
    from,
    head,
    headRow ? storedChainHash(headRow) : null,
    firstLeaf === null ? null : BigInt(firstLeaf),
    lastLeaf === null ? null : BigInt(lastLeaf),
    BigInt(size),
    new Date().toISOString(),
  );
};
