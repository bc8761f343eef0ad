import { type JsonObject, type JsonValue, type RecordedEvent } from '@session-ledger/core';
import { sessionIdOf } from '@session-ledger/events';

/** Every stored event, as stored: no validation, no upcasting (so even a bad event can be inspected). */
export interface RawEvent {
  stream: string;
  sessionId: string | null;
  id: string;
  type: string;
  revision: bigint;
  position: bigint;
  data: JsonValue;
  metadata: JsonObject;
  created: string;
}

export interface RawView {
  events: RawEvent[];
}

export const rawEvent = (event: RecordedEvent): RawEvent => ({
  stream: event.streamName,
  sessionId: sessionIdOf(event.streamName),
  id: event.id,
  type: event.type,
  revision: event.revision,
  position: event.position,
  data: event.data,
  metadata: event.metadata,
  created: event.created,
});

export const rawView = (events: Iterable<RecordedEvent>): RawView => ({ events: Array.from(events, rawEvent) });
