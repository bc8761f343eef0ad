import type { EventData as ClientEventData, ResolvedEvent } from '@eventstore/db-client';
import { isJsonObject, type EventData, type JsonObject, type JsonValue, type RecordedEvent } from '@session-ledger/core';
import { NO_POSITION } from './positions.js';

/** A port event as the client's JSON event; data and metadata travel as UTF-8 JSON. */
export const toClientEvent = (event: EventData): ClientEventData =>
  ({
    id: event.id,
    type: event.type,
    contentType: 'application/json',
    data: event.data,
    metadata: event.metadata ?? {},
  }) as unknown as ClientEventData;

const decoded = (value: unknown): JsonValue => {
  if (value instanceof Uint8Array) {
    const text = Buffer.from(value).toString('utf8');
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      return text;
    }
  }
  return (value ?? null) as JsonValue;
};

/**
 * A resolved event as the port's RecordedEvent. Events written by other tools may carry binary
 * data or no metadata: data that is not JSON arrives as its text, metadata that is not a JSON
 * object as {}.
 */
export const toRecorded = (resolved: ResolvedEvent): RecordedEvent | null => {
  const event = resolved.event;
  if (!event) return null;
  const metadata = decoded(event.metadata);
  const commit = event.position?.commit ?? resolved.commitPosition;
  return {
    streamName: event.streamId,
    id: event.id,
    type: event.type,
    revision: event.revision,
    position: commit === undefined || commit === NO_POSITION ? -1n : commit,
    data: decoded(event.data),
    metadata: isJsonObject(metadata) ? (metadata as JsonObject) : {},
    created: event.created.toISOString(),
  };
};
