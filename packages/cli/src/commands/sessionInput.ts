import { invalidInput, isJsonObject, type JsonObject } from '@session-ledger/core';
import { parseJsonOption, readUtf8File } from '../parse.js';

/** --content TEXT, or --content-file PATH (- for standard input); exactly one. */
export const contentOf = (options: { content?: string; contentFile?: string }): string => {
  if ((options.content === undefined) === (options.contentFile === undefined)) {
    throw invalidInput('Give exactly one of --content TEXT and --content-file PATH|-');
  }
  if (options.content !== undefined) return options.content;
  return readUtf8File('--content-file', options.contentFile!, 'content-file', true);
};

/** --tool-calls JSON: an array of objects. */
export const toolCallsOf = (text: string | undefined): JsonObject[] | undefined => {
  if (text === undefined) return undefined;
  const value = parseJsonOption('tool-calls', text);
  if (!Array.isArray(value) || !value.every(isJsonObject)) throw invalidInput('--tool-calls must be a JSON array of objects', 'tool-calls');
  return value as JsonObject[];
};

export const oneOf = <T extends string>(name: string, text: string | undefined, choices: readonly T[]): T | undefined => {
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text)) throw invalidInput(`--${name} must be one of ${choices.join(', ')}: ${text}`, name);
  return text as T;
};
