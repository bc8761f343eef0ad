import { isLedgerError, readStreamIfAny, readStreamState, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { sessionDeleted } from '../errors.js';

/**
 * Deletes a compression child's start (a tombstone at revision 0): a child written to since is
 * another writer's, and stays (the tombstone is refused as drift); one tombstoned already is done.
 */
const dropStart = async (store: EventStore, childId: string): Promise<void> => {
  try {
    await store.tombstoneStream(sessionStream(childId), { expectedRevision: 0n });
  } catch (error) {
    if (!isLedgerError(error, 'stream_deleted') && !isLedgerError(error, 'wrong_expected_version')) throw error;
  }
};

/**
 * After a compression started its child: a deletion racing it may have read the conversation before
 * the child existed and tombstoned only the parent. Each side checks the other after its own write
 * (the deletion the child after its tombstones: retention's startedSince.ts), so one of the two
 * deletes the child: here, the parent gone means the child's start goes too (dropStart), and the
 * compression answers session_deleted. A parent still stored: nothing to do.
 */
export const unlessParentDeleted = async (store: EventStore, parentId: string, childId: string): Promise<void> => {
  if ((await readStreamState(store, sessionStream(parentId), { maxCount: 1 })).state === 'live') return;
  await dropStart(store, childId);
  throw sessionDeleted(parentId);
};

/**
 * The same compression run again (the same child id) once its parent is deleted: a run killed after
 * starting the child and before unlessParentDeleted, while a deletion that had already made its own
 * check tombstoned the parent, left the child holding the deleted conversation's summary. Its start is
 * deleted here when the child holds nothing else and names this parent as a compression's; any other
 * stream under that id is left as it is. The caller then answers session_deleted.
 */
export const dropOrphanedChild = async (store: EventStore, parentId: string, childId: string): Promise<void> => {
  let events;
  try {
    events = await readStreamIfAny(store, sessionStream(childId));
  } catch (error) {
    if (isLedgerError(error, 'stream_deleted')) return;
    throw error;
  }
  const start = events?.length === 1 ? events[0]! : undefined;
  const data = start?.type === 'session.started' ? (start.data as { parentId?: unknown; link?: unknown }) : undefined;
  if (data?.parentId === parentId && data.link === 'compression') await dropStart(store, childId);
};
