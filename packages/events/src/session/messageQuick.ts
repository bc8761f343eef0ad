import { isPlainObject } from '@session-ledger/core';
import { isoTime, ROLES } from './common.js';
import { SAFE_ID } from './ids.js';
import { copyJsonObject, copyTokenCounts, copyToolCalls } from './jsonQuick.js';
import type { MessageAppended } from './messages.js';

/**
 * message.appended v2 of the usual shape (text fields, and plain JSON tool calls, token counts and
 * extras: what harnesses and the Hermes import write), checked by hand. It is the one event written and read per message; zod's general machinery cost
 * little in a tight loop but several microseconds per append between SQLite calls (see
 * docs/benchmarks.md). Sound, not complete: whatever it accepts, the schema accepts with the same
 * output (a property test pins this); anything else returns undefined and the schema decides (and
 * words the error).
 */
const REQUIRED = ['content', 'messageId', 'role', 'timestamp'] as const;
/** Optional text fields, each in the schema's (alphabetical) place. */
const OPTIONAL_TEXT = { finishReason: 0, reasoning: 0, toolCallId: 1, toolName: 1, turnId: 0 } as const;
/** Optional JSON fields: copied as the schema copies them (jsonQuick.ts), or left to the schema. */
const OPTIONAL_JSON = { extra: copyJsonObject, tokenCounts: copyTokenCounts, toolCalls: copyToolCalls } as const;

/** The schema's own timestamp pattern, so both accept the same times; none: always ask the schema. */
const ISO_TIME: RegExp | undefined = isoTime.def.pattern instanceof RegExp ? isoTime.def.pattern : undefined;

const isRole = (value: unknown): boolean => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

const isPlain = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && isPlainObject(value);

const optionalOk = (key: keyof typeof OPTIONAL_TEXT, value: unknown): boolean => {
  if (typeof value !== 'string') return false;
  if (key === 'turnId') return SAFE_ID.test(value);
  return value.length >= OPTIONAL_TEXT[key];
};

export const quickMessageAppended = (data: unknown): MessageAppended | undefined => {
  if (!ISO_TIME || !isPlain(data)) return undefined;
  const { content, messageId, role, timestamp } = data;
  if (content !== null && typeof content !== 'string') return undefined;
  if (typeof messageId !== 'string' || !SAFE_ID.test(messageId) || !isRole(role)) return undefined;
  if (typeof timestamp !== 'string' || !ISO_TIME.test(timestamp)) return undefined;
  let optional = 0;
  let extra: unknown;
  let tokenCounts: unknown;
  let toolCalls: unknown;
  for (const key of Object.keys(data)) {
    if ((REQUIRED as readonly string[]).includes(key)) continue;
    if (Object.hasOwn(OPTIONAL_JSON, key)) {
      const copied = OPTIONAL_JSON[key as keyof typeof OPTIONAL_JSON](data[key]);
      if (copied === undefined) return undefined;
      if (key === 'extra') extra = copied;
      else if (key === 'tokenCounts') tokenCounts = copied;
      else toolCalls = copied;
    } else if (!Object.hasOwn(OPTIONAL_TEXT, key) || !optionalOk(key as keyof typeof OPTIONAL_TEXT, data[key])) return undefined;
    optional += 1;
  }
  if (optional === 0) return { content, messageId, role, timestamp } as MessageAppended;
  // The schema's key order: content, extra, finishReason, messageId, reasoning, role, timestamp, tokenCounts,
  // toolCallId, toolCalls, toolName, turnId.
  const out: Record<string, unknown> = { content };
  if (extra !== undefined) out.extra = extra;
  if (data.finishReason !== undefined) out.finishReason = data.finishReason;
  out.messageId = messageId;
  if (data.reasoning !== undefined) out.reasoning = data.reasoning;
  out.role = role;
  out.timestamp = timestamp;
  if (tokenCounts !== undefined) out.tokenCounts = tokenCounts;
  if (data.toolCallId !== undefined) out.toolCallId = data.toolCallId;
  if (toolCalls !== undefined) out.toolCalls = toolCalls;
  if (data.toolName !== undefined) out.toolName = data.toolName;
  if (data.turnId !== undefined) out.turnId = data.turnId;
  return out as MessageAppended;
};
