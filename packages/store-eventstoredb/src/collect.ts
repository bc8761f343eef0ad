import type { ResolvedEvent } from '@eventstore/db-client';
import { invalidInput, type RecordedEvent } from '@session-ledger/core';
import { mapClientError, type ErrorContext } from './errors.js';
import { toRecorded } from './convert.js';

/** Drains one client read into port events; a failed read rethrows as a ledger error. */
export const collect = async (read: AsyncIterable<ResolvedEvent>, context: ErrorContext): Promise<RecordedEvent[]> => {
  const out: RecordedEvent[] = [];
  try {
    for await (const resolved of read) {
      const event = toRecorded(resolved);
      if (event) out.push(event);
    }
  } catch (error) {
    throw mapClientError(error, context);
  }
  return out;
};

/** The same check the in-memory store makes: a count is a whole number, at least zero. */
export const checkCount = (maxCount: number | undefined): number | undefined => {
  if (maxCount === undefined) return undefined;
  if (!Number.isInteger(maxCount) || maxCount < 0) throw invalidInput(`maxCount must be a whole number: ${maxCount}`);
  return maxCount;
};
