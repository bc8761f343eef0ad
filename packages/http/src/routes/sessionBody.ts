import { invalidInput, isJsonObject, parseExpected, type JsonObject } from '@session-ledger/core';

/** Request bodies are JSON objects; fields are checked here, then by the event schemas. */
export const objectBody = (body: unknown): JsonObject => {
  if (body === null) return {};
  if (!isJsonObject(body)) throw invalidInput('The body must be a JSON object');
  return body;
};

export const optionalString = (body: JsonObject, field: string): string | undefined => {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidInput(`${field} must be a string`, field);
  return value;
};

export const requiredString = (body: JsonObject, field: string): string => {
  const value = optionalString(body, field);
  if (value === undefined) throw invalidInput(`${field} is required`, field);
  return value;
};

/** `expectedRevision`: a revision number (the writer's known revision), or absent. */
export const expectedOf = (body: JsonObject): bigint | undefined => {
  const value = body.expectedRevision;
  if (value === undefined || value === null) return undefined;
  const parsed = parseExpected(String(value));
  if (typeof parsed !== 'bigint') throw invalidInput('expectedRevision must be a revision number', 'expectedRevision');
  return parsed;
};

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `ttl`: milliseconds as a number, or a duration such as "30s"; default 30 s. */
export const ttlOf = (body: JsonObject): number => {
  const value = body.ttl ?? body.ttlMs;
  if (value === undefined || value === null) return 30_000;
  if (typeof value === 'number') return value;
  const match = typeof value === 'string' ? /^(\d+)(ms|s|m|h)$/.exec(value) : null;
  if (!match) throw invalidInput('ttl must be milliseconds or a duration such as "30s"', 'ttl');
  return Number(match[1]) * UNITS[match[2]!]!;
};
