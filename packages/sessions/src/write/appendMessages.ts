import { deterministicId, isLedgerError, type JsonObject } from '@session-ledger/core';
import { checkSafeId, type MessageAppended, type Role } from '@session-ledger/events';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { appendToSegment } from './appendToSegment.js';

/** A message as a harness hands it over; everything but role and content is optional. */
export interface MessageInput {
  /** Caller-given, or deterministic from (segment, expected revision, place in the batch). */
  id?: string;
  role: Role;
  /** null: a tool-call-only reply. */
  content: string | null;
  toolCalls?: JsonObject[];
  toolCallId?: string;
  toolName?: string;
  tokenCounts?: Record<string, number>;
  /** ISO time; default: the writer clock. */
  timestamp?: string;
  turnId?: string;
  finishReason?: string;
  reasoning?: string;
  /** Anything else the harness keeps (e.g. unknown columns of an import). */
  extra?: JsonObject;
}

export type AppendMessagesResult = WriteResult & { messageIds: string[] };

/**
 * The event data: the input's own keys but id, timestamp and turnId (undefined ones left out), then
 * messageId, timestamp and turnId. Built by adding keys, never deleting them: a `delete` turns the
 * object into a slow dictionary that validation and hashing then walk on every append.
 */
const toData = (input: MessageInput, messageId: string, at: string, turnId: string | undefined): MessageAppended => {
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (key === 'id' || key === 'timestamp' || key === 'turnId') continue;
    const value = (input as unknown as Record<string, unknown>)[key];
    if (value !== undefined) data[key] = value;
  }
  data.messageId = messageId;
  data.timestamp = input.timestamp ?? at;
  const turn = input.turnId ?? turnId;
  if (turn !== undefined) data.turnId = turn;
  return data as MessageAppended;
};

/** A stateless append (no expected revision) that loses a race re-reads the head and tries again, this many times. */
const STATELESS_ATTEMPTS = 5;

/**
 * Appends messages in one conditional append. The event id derives from the message id, so a retry
 * with the same ids and expected revision never duplicates a message. Without an expected revision,
 * a concurrent writer's append in between is not an error: the head is read again.
 */
export const appendMessages = async (
  context: WriterContext,
  sessionId: string,
  messages: MessageInput[],
  input: Conditional & { turnId?: string } = {},
): Promise<AppendMessagesResult> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await appendOnce(context, sessionId, messages, input);
    } catch (error) {
      if (input.expectedRevision !== undefined || attempt >= STATELESS_ATTEMPTS || !isLedgerError(error, 'wrong_expected_version')) throw error;
    }
  }
};

const appendOnce = async (
  context: WriterContext,
  sessionId: string,
  messages: MessageInput[],
  input: Conditional & { turnId?: string },
): Promise<AppendMessagesResult> => {
  const at = nowOf(context).toISOString();
  let messageIds: string[] = [];
  const result = await appendToSegment(context.ledger, sessionId, input, (expected) => {
    messageIds = messages.map((message, index) => checkSafeId(message.id ?? deterministicId(sessionId, 'message', expected, index), 'messageId'));
    return messages.map((message, index) => ({
      id: deterministicId(sessionId, 'message.appended', messageIds[index]!),
      type: 'message.appended' as const,
      data: toData(message, messageIds[index]!, at, input.turnId),
    }));
  });
  return { ...result, messageIds };
};

export const appendMessage = async (
  context: WriterContext,
  sessionId: string,
  message: MessageInput,
  input: Conditional & { turnId?: string } = {},
): Promise<WriteResult & { messageId: string }> => {
  const { messageIds, ...result } = await appendMessages(context, sessionId, [message], input);
  return { ...result, messageId: messageIds[0]! };
};
