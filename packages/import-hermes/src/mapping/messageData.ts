import { inexactInteger, type JsonObject } from '@session-ledger/core';
import { ROLES, type MessageAppended, type Role } from '@session-ledger/events';
import type { HermesMessage } from '../model.js';
import { readContent } from './hermesRead.js';
import { isoOf } from './time.js';
import { keepableJson, parseStoredJson } from '../source/values.js';

const isRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);

/** The tool calls as a list of objects; undefined for anything else (the row's text is then kept in extra.hermes.toolCalls). */
const parseToolCalls = (text: string | null): JsonObject[] | undefined => {
  const parsed = text === null ? undefined : parseStoredJson(text);
  if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))) return parsed as JsonObject[];
  return undefined;
};

/**
 * What the ledger keeps of a row beyond the message fields: its row id and raw timestamp, every
 * column the mapping does not know, and any value the message schema could not hold as is.
 * Keys in canonical (code unit) order, as the columns are (see source/rows.ts): the chain hash then
 * encodes the event data with one native JSON.stringify (core's isCanonicalAsIs).
 */
export const hermesRowExtra = (row: HermesMessage): JsonObject => {
  const out: JsonObject = {};
  if (Object.keys(row.extra).length > 0) out.columns = row.extra;
  out.rowId = row.rowId;
  if (row.summary) out.summary = true;
  out.timestamp = row.timestamp;
  return out;
};

/** A Hermes row as message.appended data: the role, content and tool fields as Hermes stored them. */
export const messageData = (row: HermesMessage, messageId: string, fallbackTime: number | null): MessageAppended => {
  const read = readContent(row.role, row.content, row.toolCalls);
  const data: MessageAppended = {
    messageId,
    role: isRole(row.role) ? row.role : 'system',
    content: read.content,
    timestamp: isoOf(row.timestamp, fallbackTime),
  };
  const toolCalls = parseToolCalls(row.toolCalls);
  if (toolCalls) data.toolCalls = toolCalls;
  if (row.toolCallId) data.toolCallId = row.toolCallId;
  if (row.toolName) data.toolName = row.toolName;
  const tokenCountOk = row.tokenCount !== null && Number.isInteger(row.tokenCount) && row.tokenCount >= 0;
  if (tokenCountOk) data.tokenCounts = { total: row.tokenCount! };
  if (row.finishReason !== null) data.finishReason = row.finishReason;
  if (row.reasoning !== null) data.reasoning = row.reasoning;
  // What Hermes strips or decodes on read is kept beside the content (the stored text, the parts), and
  // what the message fields cannot hold as is, in canonical key order.
  const hermes: JsonObject = {};
  if (Object.keys(row.extra).length > 0) hermes.columns = row.extra;
  // Parts the ledger cannot keep as JSON (a "__proto__" key, deeper than it takes, a whole number
  // JSON.parse changed) stay in the stored text (storedContent), whole.
  if (read.parts !== undefined && keepableJson(read.parts) && inexactInteger(row.content ?? '') === undefined) hermes.parts = read.parts;
  if (!isRole(row.role)) hermes.role = row.role;
  hermes.rowId = row.rowId;
  if (read.content !== row.content) hermes.storedContent = row.content;
  if (row.summary) hermes.summary = true;
  hermes.timestamp = row.timestamp;
  if (row.tokenCount !== null && !tokenCountOk) hermes.tokenCount = row.tokenCount;
  if (!row.toolCallId && row.toolCallId !== null) hermes.toolCallId = row.toolCallId;
  if (!toolCalls && row.toolCalls !== null) hermes.toolCalls = row.toolCalls;
  if (!row.toolName && row.toolName !== null) hermes.toolName = row.toolName;
  data.extra = { hermes };
  return data;
};
