import { deterministicId, type Ledger } from '@session-ledger/core';
import type { SessionStarted } from '@session-ledger/events';
import type { LineageMessage, PreparedMessage } from '../decide/commands.js';
import { eachAncestor } from './ancestors.js';

/**
 * The batch's caller-given messages that the segment's compression ancestors hold, nearest first,
 * each with whether it is stored there with the content given now (its event id there derives from
 * that segment's id: see prepareMessage).
 */
export const lineageMessages = async (ledger: Ledger, started: SessionStarted, messages: PreparedMessage[]): Promise<Map<string, LineageMessage>> => {
  const wanted = messages.filter((message) => message.digest !== undefined);
  const found = new Map<string, LineageMessage>();
  if (wanted.length === 0) return found;
  await eachAncestor(ledger, started, (parentId, state) => {
    for (const message of wanted) {
      const eventId = state.messages.get(message.messageId);
      if (eventId === undefined || found.has(message.messageId)) continue;
      found.set(message.messageId, { sessionId: parentId, same: eventId === deterministicId(parentId, 'message.appended', message.messageId, message.digest!) });
    }
    return found.size < wanted.length;
  });
  return found;
};
