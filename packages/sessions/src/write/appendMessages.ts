import { canonicalJson, deterministicId, invalidInput, newId, type JsonObject } from '@session-ledger/core';
import { checkNewId, checkSafeId, type MessageAppended, type Role } from '@session-ledger/events';
import { nowOf, type Conditional, type WriteResult, type WriterContext } from '../context.js';
import type { CommandOf, PreparedMessage } from '../decide/commands.js';
import { runSegment, writeResultOf, type SegmentHandled } from './runSegment.js';
import { lineageMessages } from './lineageMessages.js';

/** A message as a harness hands it over; everything but role and content is optional. */
export interface MessageInput {
  /** Caller-given (what makes a retry safe), or a new UUID. */
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
 * The event data: the input's own keys but id (undefined ones left out), messageId, and the
 * append's turnId when the message names none, in sorted key order, so its canonical text (the
 * event id's digest) is one native JSON.stringify; built from a fixed key list, not by sorting
 * (benchmark row "appendMessage through the writer API"). Built by adding keys, never deleting
 * them: a `delete` turns the object into a slow dictionary that validation and hashing then walk.
 * MessageInput's keys as they go into the data, in sorted order (`id` is not data; messageId and
 * turnId are set by the writer):
 */
const DATA_KEYS = ['content', 'extra', 'finishReason', 'messageId', 'reasoning', 'role', 'timestamp', 'tokenCounts', 'toolCallId', 'toolCalls', 'toolName', 'turnId'] as const;
const KNOWN_KEYS: ReadonlySet<string> = new Set<string>([...DATA_KEYS, 'id']);

const toData = (input: MessageInput, messageId: string, turnId: string | undefined): MessageAppended => {
  const fields = input as unknown as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const key of DATA_KEYS) {
    const value = key === 'messageId' ? messageId : key === 'turnId' ? (input.turnId ?? turnId) : fields[key];
    if (value !== undefined) data[key] = value;
  }
  // A key MessageInput does not have (a JavaScript caller's mistake) is kept, so the schema refuses it by name.
  for (const key in fields) if (!KNOWN_KEYS.has(key) && fields[key] !== undefined) data[key] = fields[key];
  return data as MessageAppended;
};

/**
 * The event id of a message derives from its session, its id and what the caller gave (the writer
 * clock left out): a retry of the same message carries the same event id, a different message
 * under a reused id never does, so the decider tells a retry (no-op) from a conflict.
 */
export const prepareMessage = (sessionId: string, message: MessageInput, turnId: string | undefined, now: () => string): PreparedMessage => {
  const messageId = checkNewId(message.id ?? newId(), 'messageId');
  const data = toData(message, messageId, turnId);
  // A new message id can never be retried under that id: its event id needs no digest.
  if (message.id === undefined) {
    if (data.timestamp === undefined) data.timestamp = now();
    return { messageId, eventId: newId(), data };
  }
  const digest = canonicalJson(data);
  const eventId = deterministicId(sessionId, 'message.appended', messageId, digest);
  if (data.timestamp === undefined) data.timestamp = now();
  return { messageId, eventId, data, digest };
};

type AppendInput = Conditional & { turnId?: string };

/** The writer clock is read once per append, and only when a message has no timestamp of its own. */
const clockOf = (context: WriterContext) => {
  let at: string | undefined;
  return () => (at ??= nowOf(context).toISOString());
};

const NO_TURNS: readonly string[] = [];

/** The distinct turns a batch names (each message's own, else the append's), checked as ids. */
const turnsNamed = (messages: MessageInput[], turnId: string | undefined): readonly string[] => {
  let named: string[] | undefined;
  for (const message of messages) {
    const turn = message.turnId ?? turnId;
    if (turn !== undefined && !named?.includes(turn)) (named ??= []).push(checkSafeId(turn, 'turnId'));
  }
  return named ?? NO_TURNS;
};

/**
 * Appends messages in one conditional append, decided by the segment decider: the segment must be
 * open, every turn named must hold it (a message in a turn is fenced by that turn), and a message
 * id already stored is a retry only with the same content. Without a caller id each message gets a
 * new UUID, so two writers never share one; give ids to make a retry safe.
 */
export const appendMessages = async (
  context: WriterContext,
  sessionId: string,
  messages: MessageInput[],
  input: AppendInput = {},
): Promise<AppendMessagesResult> => {
  const command = appendCommand(context, sessionId, messages, input);
  let handled = await runSegment(context.ledger, command, input.expectedRevision);
  if (handled.reply.lineageNeeded) handled = await withLineage(context, command, handled, input.expectedRevision);
  const result = writeResultOf(sessionId, handled) as AppendMessagesResult;
  result.messageIds = handled.reply.messageIds!;
  return result;
};

/** One message: the same append, its result shaped directly (the writer's hot path: benchmark row "appendMessage through the writer API"). */
export const appendMessage = async (
  context: WriterContext,
  sessionId: string,
  message: MessageInput,
  input: AppendInput = {},
): Promise<WriteResult & { messageId: string }> => {
  const command = appendCommand(context, sessionId, [message], input);
  let handled = await runSegment(context.ledger, command, input.expectedRevision);
  if (handled.reply.lineageNeeded) handled = await withLineage(context, command, handled, input.expectedRevision);
  return { sessionId, revision: handled.revision, position: handled.position ?? -1n, written: handled.written, messageId: handled.reply.messageIds![0]! };
};

/** The append_messages command: the messages prepared (ids, content-derived event ids), the turns they name. */
const appendCommand = (context: WriterContext, sessionId: string, messages: MessageInput[], input: AppendInput): CommandOf<'append_messages'> => {
  checkSafeId(sessionId, 'sessionId');
  if (messages.length === 0) throw invalidInput('Nothing to append');
  const now = clockOf(context);
  const prepared: PreparedMessage[] = new Array(messages.length);
  for (let index = 0; index < messages.length; index += 1) prepared[index] = prepareMessage(sessionId, messages[index]!, input.turnId, now);
  if (prepared.length > 1 && new Set(prepared.map((message) => message.messageId)).size !== prepared.length) throw invalidInput('A batch names one message id twice', 'messageId');
  const turnIds = turnsNamed(messages, input.turnId);
  const command: CommandOf<'append_messages'> = { kind: 'append_messages', sessionId, messages: prepared, turnIds };
  if (turnIds.length > 0) command.now = nowOf(context);
  return command;
};

/** The command decided again with what the segment's compression ancestors hold of the batch (the decider asked: `lineageNeeded`). */
const withLineage = async (context: WriterContext, command: CommandOf<'append_messages'>, handled: SegmentHandled, expectedRevision: bigint | undefined) => {
  command.lineage = await lineageMessages(context.ledger, handled.state.started!, command.messages);
  return runSegment(context.ledger, command, expectedRevision);
};
