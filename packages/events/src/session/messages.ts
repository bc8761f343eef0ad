import { z } from 'zod';
import { isoTime, jsonObject, role, safeId, tokenCounts, toolCalls } from './common.js';

/** message.appended v1 (legacy): text content and one token total. Read through `upcastMessageV1`. */
export const messageAppendedV1 = z.strictObject({
  messageId: safeId,
  role,
  content: z.string(),
  toolCalls: toolCalls.optional(),
  toolCallId: z.string().min(1).optional(),
  tokens: z.number().int().nonnegative().optional(),
  timestamp: isoTime,
});

/**
 * message.appended v2: content may be null (a tool-call-only reply), token counts by kind, open extras.
 * Keys in code-unit order: the parsed data comes out in this order, which is the canonical one, so the
 * chain hash encodes a plain message with one native JSON.stringify (see canonicalJson).
 */
export const messageAppendedV2 = z.strictObject({
  content: z.string().nullable(),
  extra: jsonObject.optional(),
  finishReason: z.string().optional(),
  messageId: safeId,
  reasoning: z.string().optional(),
  role,
  timestamp: isoTime,
  tokenCounts: tokenCounts.optional(),
  toolCallId: z.string().min(1).optional(),
  toolCalls: toolCalls.optional(),
  toolName: z.string().min(1).optional(),
  turnId: safeId.optional(),
});

export type MessageAppendedV1 = z.infer<typeof messageAppendedV1>;
export type MessageAppended = z.infer<typeof messageAppendedV2>;

export const upcastMessageV1 = (data: MessageAppendedV1): MessageAppended => {
  const { tokens, ...rest } = data;
  return tokens === undefined ? rest : { ...rest, tokenCounts: { total: tokens } };
};

/** message.rewritten v1: the same message id gets new content; `previous` is informational. */
export const messageRewrittenV1 = z.strictObject({
  messageId: safeId,
  content: z.string().nullable(),
  previous: z.string().nullable().optional(),
  reason: z.string().optional(),
  rewrittenAt: isoTime,
});

export type MessageRewritten = z.infer<typeof messageRewrittenV1>;
