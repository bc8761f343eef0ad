import { canonicalJson, digestOf, type JsonObject, type JsonValue } from '@session-ledger/core';
import type { DisplayMessage } from '@session-ledger/projections';
import type { HermesMessage } from '../model.js';
import { readContent } from '../mapping/hermesRead.js';

/** What a display message is compared on: role, content (as Hermes reads it) and tool fields. */
export interface ComparedItem {
  role: string;
  content: string | null;
  toolCalls: string | null;
  toolCallId: string | null;
  toolName: string | null;
}

const toolCallsText = (text: string | null): string | null => {
  if (text === null) return null;
  try {
    return canonicalJson(JSON.parse(text) as JsonValue);
  } catch {
    return text;
  }
};

export const sourceItem = (row: HermesMessage): ComparedItem => ({
  role: row.role,
  content: readContent(row.role, row.content, row.toolCalls).content,
  toolCalls: toolCallsText(row.toolCalls),
  toolCallId: row.toolCallId,
  toolName: row.toolName,
});

const hermesExtra = (message: DisplayMessage): JsonObject => {
  const value = message.extra?.hermes;
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
};

const text = (value: JsonValue | undefined): string | null => (typeof value === 'string' ? value : null);

export const ledgerItem = (message: DisplayMessage): ComparedItem => {
  const hermes = hermesExtra(message);
  return {
    role: text(hermes.role) ?? message.role,
    content: message.content,
    toolCalls: message.toolCalls ? canonicalJson(message.toolCalls) : toolCallsText(text(hermes.toolCalls)),
    toolCallId: message.toolCallId ?? text(hermes.toolCallId),
    toolName: message.toolName ?? text(hermes.toolName),
  };
};

export interface Side {
  messages: ComparedItem[];
  summaries: string[];
}

export const digestSide = (side: Side) => ({
  messages: { count: side.messages.length, digest: digestOf(side.messages as unknown as JsonValue) },
  summaries: { count: side.summaries.length, digest: digestOf(side.summaries) },
});

const preview = (item: ComparedItem | string | undefined): string => {
  if (item === undefined) return '(none)';
  const content = typeof item === 'string' ? item : `${item.role}: ${item.content ?? (item.toolCalls ? `tool calls ${item.toolCalls}` : '(no content)')}`;
  return JSON.stringify(content.length > 80 ? `${content.slice(0, 77)}...` : content);
};

/** The first place two lists differ, described for a person; null when equal. */
export const firstDifference = <T extends ComparedItem | string>(source: T[], ledger: T[]): string | null => {
  const length = Math.max(source.length, ledger.length);
  for (let i = 0; i < length; i += 1) {
    if (canonicalJson((source[i] ?? null) as JsonValue) !== canonicalJson((ledger[i] ?? null) as JsonValue)) {
      return `first difference at #${i + 1}: source ${preview(source[i])}, ledger ${preview(ledger[i])}`;
    }
  }
  return null;
};
