import { invalidInput, newId } from '@session-ledger/core';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { runSegment, writeResultOf } from './runSegment.js';
import { loadForWrite, messageOf } from './loadForWrite.js';

/** Takes messages back (rewind, undo, regenerate): they leave the display and active views; raw keeps them. */
export const rewindMessages = async (
  context: WriterContext,
  sessionId: string,
  messageIds: string[],
  input: Conditional & { reason?: string } = {},
): Promise<WriteResult & { messageIds: string[] }> => {
  if (messageIds.length === 0) throw invalidInput('Name at least one message to rewind', 'messageIds');
  const { loaded } = await loadForWrite(context.ledger, sessionId);
  for (const id of messageIds) messageOf(loaded, id);
  const data = { messageIds, rewoundAt: nowOf(context).toISOString(), ...(input.reason === undefined ? {} : { reason: input.reason }) };
  const events = [{ id: newId(), type: 'history.rewound' as const, data }];
  return { ...writeResultOf(sessionId, await runSegment(context.ledger, { kind: 'append', sessionId, events }, input.expectedRevision)), messageIds };
};
