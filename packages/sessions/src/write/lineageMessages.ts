import { deterministicId, isLedgerError, type Ledger } from '@session-ledger/core';
import { sessionStream, type SessionStarted } from '@session-ledger/events';
import type { LineageMessage, PreparedMessage } from '../decide/commands.js';
import { segmentDecider } from '../decide/segmentDecider.js';

/**
 * The batch's caller-given messages that the segment's compression ancestors hold, nearest first,
 * each with whether it is stored there with the content given now (its event id there derives from
 * that segment's id: see prepareMessage). Ancestors are sealed, so what they hold no longer
 * changes; one that is deleted or gone ends the walk.
 */
export const lineageMessages = async (ledger: Ledger, started: SessionStarted, messages: PreparedMessage[]): Promise<Map<string, LineageMessage>> => {
  const wanted = messages.filter((message) => message.digest !== undefined);
  const found = new Map<string, LineageMessage>();
  const seen = new Set([started.sessionId]);
  let { link, parentId } = started;
  while (link === 'compression' && parentId !== null && !seen.has(parentId) && found.size < wanted.length) {
    seen.add(parentId);
    let state;
    try {
      state = (await ledger.load(segmentDecider, sessionStream(parentId))).state;
    } catch (error) {
      if (isLedgerError(error, 'stream_deleted')) break;
      throw error;
    }
    for (const message of wanted) {
      const eventId = state.messages.get(message.messageId);
      if (eventId === undefined || found.has(message.messageId)) continue;
      found.set(message.messageId, { sessionId: parentId, same: eventId === deterministicId(parentId, 'message.appended', message.messageId, message.digest!) });
    }
    if (!state.started) break;
    ({ link, parentId } = state.started);
  }
  return found;
};
