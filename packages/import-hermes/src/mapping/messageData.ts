import type { JsonObject } from '@session-ledger/core';
import { ROLES, type MessageAppended, type Role } from '@session-ledger/events';
import type { HermesMessage } from '../model.js';
import { readContent } from './hermesRead.js';
import { isoOf } from './time.js';

const isRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);

const parseToolCalls = (text: string | null): JsonObject[] | undefined => {
  if (text === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))) {
      return parsed as JsonObject[];
    }
  } catch {
    return undefined;
  }
  return undefined;
};

/**
 * What the ledger keeps of a row beyond the message fields: its row id and raw timestamp, every
 * column the mapping does not know, and any value the message schema could not hold as is.
 */
export const hermesRowExtra = (row: HermesMessage): JsonObject => {
  const out: JsonObject = { rowId: row.rowId, timestamp: row.timestamp };
  if (row.summary) out.summary = true;
  if (Object.keys(row.extra).length > 0) out.columns = row.extra;
  return out;
};

/** A Hermes row as message.appended data: the role, content and tool fields as Hermes stored them. */
export const messageData = (row: HermesMessage, messageId: string, fallbackTime: number | null): MessageAppended => {
  const hermes = hermesRowExtra(row);
  const read = readContent(row.role, row.content, row.toolCalls);
  const data: MessageAppended = {
    messageId,
    role: isRole(row.role) ? row.role : 'system',
    content: read.content,
    timestamp: isoOf(row.timestamp, fallbackTime),
  };
  // What Hermes strips or decodes on read is kept beside the content: the stored text, the parts.
  if (read.content !== row.content) hermes.storedContent = row.content;
  if (read.parts !== undefined) hermes.parts = read.parts;
  if (!isRole(row.role)) hermes.role = row.role;
  const toolCalls = parseToolCalls(row.toolCalls);
  if (toolCalls) data.toolCalls = toolCalls;
  else if (row.toolCalls !== null) hermes.toolCalls = row.toolCalls;
  if (row.toolCallId) data.toolCallId = row.toolCallId;
  else if (row.toolCallId !== null) hermes.toolCallId = row.toolCallId;
  if (row.toolName) data.toolName = row.toolName;
  else if (row.toolName !== null) hermes.toolName = row.toolName;
  if (row.tokenCount !== null) {
    if (Number.isInteger(row.tokenCount) && row.tokenCount >= 0) data.tokenCounts = { total: row.tokenCount };
    else hermes.tokenCount = row.tokenCount;
  }
  if (row.finishReason !== null) data.finishReason = row.finishReason;
  if (row.reasoning !== null) data.reasoning = row.reasoning;
  data.extra = { hermes };
  return data;
};
