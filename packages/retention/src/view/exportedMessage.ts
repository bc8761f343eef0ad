import { jsonSafe, type JsonObject } from '@session-ledger/core';
import type { DisplayMessage } from '@session-ledger/projections';
import { canonicalCopy } from './canonical.js';
import type { ExportedMessage } from './content.js';

const nested = <T>(value: T | undefined): T | undefined => (value === undefined ? undefined : (canonicalCopy(value) as T));

/**
 * A display message as exported: the JSON of the view, its keys written in canonical order (so the
 * digest needs no sort per message), nested user JSON copied in canonical order. Runs once per message.
 */
export const exportedMessage = (message: DisplayMessage): ExportedMessage => ({
  compacted: message.compacted,
  compactedBy: message.compactedBy,
  content: message.content,
  extra: nested<JsonObject>(message.extra),
  finishReason: message.finishReason,
  id: message.id,
  reasoning: message.reasoning,
  revision: jsonSafe(message.revision) as number,
  rewritten: message.rewritten,
  role: message.role,
  sessionId: message.sessionId,
  timestamp: message.timestamp,
  tokenCounts: nested(message.tokenCounts),
  toolCallId: message.toolCallId,
  toolCalls: nested<JsonObject[]>(message.toolCalls),
  toolName: message.toolName,
  turnId: message.turnId,
  versions: message.versions.map((version) => ({ content: version.content, replacedAt: version.replacedAt, rewrittenIn: version.rewrittenIn })),
});
