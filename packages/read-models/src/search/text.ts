import type { JsonValue } from '@session-ledger/core';

/** C0 controls but tab, newline and carriage return, and DEL: snippet() marks matches with \u0002 and \u0003. */
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export const stripControls = (text: string): string => text.replace(CONTROLS, '');

const leaves = (value: JsonValue | undefined, out: string[]): void => {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) leaves(item, out);
  else if (value !== null && value !== undefined) for (const item of Object.values(value)) leaves(item, out);
};

/** What a displayed message contributes to the index: its content, and its tool name and tool calls' values. */
export interface IndexedText {
  body: string;
  tools: string;
}

export interface TextSource {
  content: string | null;
  toolName?: string;
  toolCalls?: ReadonlyArray<Record<string, JsonValue>>;
}

/**
 * The one definition of a message's searchable text (the model and its property test use it): the
 * content, and in a second column the tool name and every string/number leaf of the tool calls
 * (arguments included, as written), each on a line; control characters stripped.
 */
export const indexedText = (message: TextSource): IndexedText => {
  const tools: string[] = message.toolName === undefined ? [] : [message.toolName];
  leaves(message.toolCalls as JsonValue | undefined, tools);
  return { body: stripControls(message.content ?? ''), tools: stripControls(tools.join('\n')) };
};
