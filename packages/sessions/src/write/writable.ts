import type { EventStore } from '@session-ledger/core';
import { sessionEnded, sessionSealed } from '../errors.js';
import { findTip } from '../read/findTip.js';
import type { SegmentTail } from '../read/segmentTail.js';

/** A sealed segment (compressed) refuses writes naming the tip; an ended one refuses with session_ended. */
export const assertWritable = async (store: EventStore, tail: SegmentTail): Promise<void> => {
  if (tail.continued) {
    const { tipId, pending } = await findTip(store, tail.sessionId);
    throw sessionSealed(tail.sessionId, tipId, pending);
  }
  if (tail.ended) throw sessionEnded(tail.sessionId);
};
