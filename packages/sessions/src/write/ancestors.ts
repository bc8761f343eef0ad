import { isLedgerError, type Ledger } from '@session-ledger/core';
import { sessionStream, type SessionStarted } from '@session-ledger/events';
import type { SegmentWriteState } from '@session-ledger/projections';
import { segmentDecider } from '../decide/segmentDecider.js';

/**
 * Visits a segment's compression ancestors' write states, nearest first, until `visit` answers
 * false. Ancestors are sealed, so what they hold no longer changes (the handler's cache serves a
 * second read); one that is deleted or gone ends the walk, as a cycle does, and so does a parent
 * whose continuation no longer names the segment (withdrawn: the segment is a conversation of its own).
 */
export const eachAncestor = async (ledger: Ledger, started: SessionStarted, visit: (sessionId: string, state: SegmentWriteState) => boolean): Promise<void> => {
  const seen = new Set([started.sessionId]);
  let { link, parentId, sessionId } = started;
  while (link === 'compression' && parentId !== null && !seen.has(parentId)) {
    seen.add(parentId);
    let state: SegmentWriteState;
    try {
      state = (await ledger.load(segmentDecider, sessionStream(parentId))).state;
    } catch (error) {
      if (isLedgerError(error, 'stream_deleted')) return;
      throw error;
    }
    if (state.continued?.childId !== sessionId || !visit(parentId, state) || !state.started) return;
    ({ link, parentId, sessionId } = state.started);
  }
};
