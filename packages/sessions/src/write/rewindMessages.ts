import { deterministicId, invalidInput } from '@session-ledger/core';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { appendToSegment } from './appendToSegment.js';
import { loadForWrite, messageOf } from './loadForWrite.js';

/** Takes messages back (rewind, undo, regenerate): they leave the display and active views; raw keeps them. */
export const rewindMessages = async (
  context: WriterContext,
  sessionId: string,
  messageIds: string[],
  input: Conditional & { reason?: string } = {},
): Promise<WriteResult & { messageIds: string[] }> => {
  if (messageIds.length === 0) throw invalidInput('Name at least one message to rewind', 'messageIds');
  const { tail, loaded } = await loadForWrite(context.ledger, sessionId);
  for (const id of messageIds) messageOf(loaded, id);
  const result = await appendToSegment(context.ledger, sessionId, { expectedRevision: input.expectedRevision, tail }, (expected) => [
    {
      id: deterministicId(sessionId, 'history.rewound', expected, ...messageIds),
      type: 'history.rewound',
      data: { messageIds, rewoundAt: nowOf(context).toISOString(), ...(input.reason === undefined ? {} : { reason: input.reason }) },
    },
  ]);
  return { ...result, messageIds };
};
