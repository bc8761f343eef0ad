import { isLedgerError, readStreamState, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { sessionDeleted } from '../errors.js';

/**
 * After a compression started its child: a deletion racing it may have read the conversation before
 * the child existed and tombstoned only the parent. Each side checks the other after its own write
 * (the deletion the child after its tombstones: retention's startedSince.ts), so one of the two
 * deletes the child: here, the parent gone means the child goes too, and the compression answers
 * session_deleted. Only the start this compression wrote is deleted (a tombstone at revision 0): a
 * child written to since is another writer's, and stays. A parent still stored: nothing to do.
 */
export const unlessParentDeleted = async (store: EventStore, parentId: string, childId: string): Promise<void> => {
  if ((await readStreamState(store, sessionStream(parentId), { maxCount: 1 })).state === 'live') return;
  try {
    await store.tombstoneStream(sessionStream(childId), { expectedRevision: 0n });
  } catch (error) {
    if (!isLedgerError(error, 'stream_deleted') && !isLedgerError(error, 'wrong_expected_version')) throw error;
  }
  throw sessionDeleted(parentId);
};
