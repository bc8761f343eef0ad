import { invalidInput, parseExpected, type ExpectedRevision, type JsonValue } from '@session-ledger/core';

/** Option parsers: each turns a string into a value or raises invalid_input (exit 2) with a one-line reason. */
export const parseJsonOption = (name: string, text: string): JsonValue => {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw invalidInput(`--${name} is not valid JSON: ${(error as Error).message}`, name);
  }
};

export const parseExpectedOption = (text: string): ExpectedRevision => {
  const expected = parseExpected(text);
  if (expected === null) throw invalidInput(`--expected-revision must be any, no_stream, stream_exists or a revision number: ${text}`);
  return expected;
};

export const parseBigIntOption = (name: string, text: string): bigint => {
  if (!/^\d+$/.test(text)) throw invalidInput(`--${name} must be a whole number: ${text}`, name);
  return BigInt(text);
};

export const parseCountOption = (name: string, text: string): number => {
  if (!/^\d+$/.test(text)) throw invalidInput(`--${name} must be a whole number: ${text}`, name);
  return Number(text);
};
