import { BACKWARDS, END, type EventStoreDBClient } from '@eventstore/db-client';
import { isLedgerError, validateEvents, type AppendResult, type EventData, type ExpectedRevision } from '@session-ledger/core';
import { collect } from './collect.js';
import { toClientEvent } from './convert.js';
import { mapped } from './errors.js';

const lastEvent = async (client: EventStoreDBClient, stream: string) => {
  try {
    const [last] = await collect(client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }), { stream });
    return last;
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return undefined;
    throw error;
  }
};

/**
 * One append, decided by the server under its own rules (the same rules core's appendRules.ts
 * encodes): conflicts arrive in the append response and become wrong_expected_version; an append
 * to a tombstoned stream becomes stream_deleted. A retry with the same event ids is idempotent on
 * the server, which does not say whether it wrote, so `written` is left out.
 */
export const appendToStream = async (
  client: EventStoreDBClient,
  stream: string,
  events: EventData[],
  expected: ExpectedRevision,
): Promise<AppendResult> => {
  validateEvents(events);
  const result = await mapped({ stream, expected }, () =>
    client.appendToStream(stream, events.map(toClientEvent), { expectedRevision: expected }),
  );
  if (events.length === 0) {
    // An empty append only checks the expected revision; the server then reports no position.
    const last = await lastEvent(client, stream);
    return { nextExpectedRevision: last?.revision ?? -1n, position: last?.position ?? 0n };
  }
  return { nextExpectedRevision: result.nextExpectedRevision, position: result.position?.commit ?? -1n };
};
