import { deterministicId } from '@session-ledger/core';

/** The ledger message id of a Hermes row (row ids are unique in one state.db). */
export const messageIdOf = (rowId: number): string => `hm-${rowId}`;

/** The summary id of a compaction that left no summary row. */
export const compactionSummaryId = (sessionId: string, triggerRowId: number): string =>
  deterministicId('hermes-compaction', sessionId, triggerRowId);

/** The summary id of a compression whose child holds no summary row. */
export const compressionSummaryId = (childId: string): string => deterministicId('hermes-compression', childId);
