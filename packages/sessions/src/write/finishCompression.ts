import type { Ledger } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { segmentDecider } from '../decide/segmentDecider.js';
import { childStreamOf } from '../read/childStream.js';
import { unlessParentDeleted } from './parentDeleted.js';
import { handedOver, startChild } from './startChild.js';

/**
 * Starts the child a stored compression names when it is not started yet: its run was killed between
 * its two writes, or is between them now. A writer refused by the sealed parent finishes it, so the
 * tip its refusal names can take the write at once. Before, that tip answered 404 until someone
 * compressed again (outside test, session 24). The start is the compression's own (startChild.ts),
 * dated when the compression was; a deletion racing it is handled as for the compression itself.
 */
export const finishCompression = async (ledger: Ledger, parentId: string): Promise<void> => {
  const { state } = await ledger.load(segmentDecider, sessionStream(parentId));
  const stored = state.continued;
  if (!stored || (await childStreamOf(ledger.store, parentId, stored.childId)) !== 'free') return;
  await startChild(ledger, parentId, stored, handedOver(state.turn), stored.continuedAt);
  await unlessParentDeleted(ledger.store, parentId, stored.childId);
};
