import type { EventStore } from '@session-ledger/core';

/** A session deleted in the ledger stays deleted: a re-import skips it by design. */
export const DELETED_IN_LEDGER = 'the session was deleted in the ledger';

/**
 * Why a session deleted in the ledger is skipped. By design a re-import leaves it deleted, and that
 * leaves nothing of the source out while the source holds no more than the stream held when it was
 * deleted. A source that went on since (Hermes wrote to the session after the ledger deleted it)
 * holds rows the ledger never had: that skip is data left out (`leftOut`, CLI exit 1). Before, it
 * was skipped with exit 0 (outside test, session 24, E-6). A store that cannot tell what a deleted
 * stream held (EventStoreDB) reports the plain reason.
 */
export const deletedReason = async (store: EventStore, stream: string, planned: number): Promise<string> => {
  const state = (await store.streamState?.(stream)) ?? null;
  if (state === null || !state.tombstoned) return DELETED_IN_LEDGER;
  const held = state.lastRevision + 1n;
  if (BigInt(planned) <= held) return DELETED_IN_LEDGER;
  return `the session was deleted in the ledger at ${held} event(s), and the source has ${BigInt(planned) - held} more since: they are not in the ledger`;
};
