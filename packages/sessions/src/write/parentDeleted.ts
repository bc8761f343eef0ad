import { isLedgerError, readStreamState, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { sessionDeleted } from '../errors.js';

/** Attempts at tombstoning a child that moved between its read and its tombstone. */
const ATTEMPTS = 10;

/**
 * After a compression started its child: a deletion racing it may have read the conversation before
 * the child existed and tombstoned only the parent. Each side checks the other after its own write
 * (the deletion the child after its tombstones: retention's startedSince.ts), so one of the two
 * deletes the child: here, the parent gone means the child goes too (at the revision it holds), and
 * the compression answers session_deleted. A parent still stored: nothing to do.
 */
export const unlessParentDeleted = async (store: EventStore, parentId: string, childId: string): Promise<void> => {
  if ((await readStreamState(store, sessionStream(parentId), { maxCount: 1 })).state === 'live') return;
  const stream = sessionStream(childId);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const read = await readStreamState(store, stream);
    if (read.state !== 'live' || read.events.length === 0) break;
    try {
      await store.tombstoneStream(stream, { expectedRevision: read.events[read.events.length - 1]!.revision });
      break;
    } catch (error) {
      if (isLedgerError(error, 'stream_deleted')) break;
      if (!isLedgerError(error, 'wrong_expected_version') || attempt === ATTEMPTS) throw error;
    }
  }
  throw sessionDeleted(parentId);
};
