import type { DeletionRecord } from '@session-ledger/core';

/** A log_deletions row as read with safe integers (tables.ts). */
export interface DeletionRow {
  id: bigint;
  stream: string;
  kind: 'soft' | 'tombstone';
  from_revision: bigint;
  head_revision: bigint;
  head_hash: string | null;
  first_leaf: bigint | null;
  last_leaf: bigint | null;
  log_size: bigint;
  at: string;
}

const numberOrNull = (value: bigint | null) => (value === null ? null : Number(value));

/** The deletion record a log_deletions row holds. */
export const deletionRecordOf = (row: DeletionRow): DeletionRecord => ({
  id: Number(row.id),
  stream: row.stream,
  kind: row.kind,
  fromRevision: row.from_revision,
  headRevision: row.head_revision,
  headHash: row.head_hash,
  firstLeaf: numberOrNull(row.first_leaf),
  lastLeaf: numberOrNull(row.last_leaf),
  logSize: Number(row.log_size),
  at: row.at,
});
