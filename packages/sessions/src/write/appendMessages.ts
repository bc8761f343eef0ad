import { deterministicId, isLedgerError, type JsonObject } from '@session-ledger/core';
import { checkSafeId, type MessageAppended, type Role } from '@session-ledger/events';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import { appendToSegment, type IdentifiedEvent } from './appendToSegment.js';
import { fenceTurns } from './turnFence.js';

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
const toData = (input: MessageInput, messageId: string, timestamp: string, turnId: string | undefined): MessageAppended => {
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (key === 'id' || key === 'timestamp' || key === 'turnId') continue;
    const value = (input as unknown as Record<string, unknown>)[key];
    if (value !== undefined) data[key] = value;
  }
  data.messageId = messageId;
  data.timestamp = timestamp;
  const turn = input.turnId ?? turnId;
  if (turn !== undefined) data.turnId = turn;
  return data as MessageAppended;
};

/** A stateless append (no expected revision) that loses a race re-reads the head and tries again, this many times. */
const STATELESS_ATTEMPTS = 5;

type AppendInput = Conditional & { turnId?: string };

/** Shapes what an append returns from the write result and the message ids (one for the batch, one per message). */
type Finish<R> = (result: WriteResult, messageIds: string[]) => R;

const batchResult: Finish<AppendMessagesResult> = (result, messageIds) => {
  const out = result as AppendMessagesResult;
  out.messageIds = messageIds;
  return out;
};

const singleResult: Finish<WriteResult & { messageId: string }> = (result, messageIds) => {
  const out: WriteResult & { messageId: string } = { sessionId: result.sessionId, revision: result.revision, position: result.position, messageId: messageIds[0]! };
  if (result.written !== undefined) out.written = result.written;
  return out;
};

/**
 * Appends messages in one conditional append. The event id derives from the message id, so a retry
 * with the same ids and expected revision never duplicates a message. Without an expected revision,
 * a concurrent writer's append in between is not an error: the head is read again.
 */
export const appendMessages = (
  context: WriterContext,
  sessionId: string,
  messages: MessageInput[],
  input: AppendInput = {},
): Promise<AppendMessagesResult> => appendWith(context, sessionId, messages, input, batchResult);

/** One message: the same append, its result shaped in the same step (no promise of its own). */
export const appendMessage = (
  context: WriterContext,
  sessionId: string,
  message: MessageInput,
  input: AppendInput = {},
): Promise<WriteResult & { messageId: string }> => appendWith(context, sessionId, [message], input, singleResult);

const appendWith = <R>(context: WriterContext, sessionId: string, messages: MessageInput[], input: AppendInput, finish: Finish<R>): Promise<R> =>
  // With an expected revision a conflict is the caller's to handle: one attempt, no retry loop (and no promise) around it.
  input.expectedRevision !== undefined ? appendOnce(context, sessionId, messages, input, finish) : appendRetrying(context, sessionId, messages, input, finish);

const appendRetrying = async <R>(
  context: WriterContext,
  sessionId: string,
  messages: MessageInput[],
  input: AppendInput,
  finish: Finish<R>,
): Promise<R> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await appendOnce(context, sessionId, messages, input, finish);
    } catch (error) {
      if (attempt >= STATELESS_ATTEMPTS || !isLedgerError(error, 'wrong_expected_version')) throw error;
    }
  }
};

/** The writer clock is read once per append, and only when a message has no timestamp of its own. */
const clockOf = (context: WriterContext) => {
  let at: string | undefined;
  return () => (at ??= nowOf(context).toISOString());
};

/** The distinct turns a batch names (each message's own, else the append's), checked as ids; none: undefined. */
const turnsNamed = (messages: MessageInput[], turnId: string | undefined): string[] | undefined => {
  let named: string[] | undefined;
  for (const message of messages) {
    const turn = message.turnId ?? turnId;
    if (turn !== undefined && !named?.includes(turn)) (named ??= []).push(checkSafeId(turn, 'turnId'));
  }
  return named;
};

const appendOnce = async <R>(
  context: WriterContext,
  sessionId: string,
  messages: MessageInput[],
  input: AppendInput,
  finish: Finish<R>,
): Promise<R> => {
  const now = clockOf(context);
  const turnIds = turnsNamed(messages, input.turnId);
  // Messages in a turn land only while that turn holds the segment (see turnFence).
  const tail = turnIds === undefined ? undefined : await fenceTurns(context.ledger, checkSafeId(sessionId, 'sessionId'), turnIds, input.expectedRevision, nowOf(context));
  const messageIds: string[] = new Array(messages.length);
  const plan = tail ? { expectedRevision: input.expectedRevision, tail } : input;
  const result = await appendToSegment(context.ledger, sessionId, plan, (expected) => {
    const events: IdentifiedEvent[] = new Array(messages.length);
    for (let index = 0; index < messages.length; index += 1) {
      const message = messages[index]!;
      const messageId = checkSafeId(message.id ?? deterministicId(sessionId, 'message', expected, index), 'messageId');
      messageIds[index] = messageId;
      const data = toData(message, messageId, message.timestamp ?? now(), input.turnId);
      events[index] = { id: deterministicId(sessionId, 'message.appended', messageId), type: 'message.appended', data };
    }
    return events;
  });
  return finish(result, messageIds);
};
