import type { JsonObject, JsonValue } from './json.js';

/** The expected state of a stream, as EventStoreDB names it. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

/** An event about to be appended. `id` must be a UUID; retries reuse it. */
export interface EventData {
  id: string;
  type: string;
  data: JsonValue;
  metadata?: JsonObject;
}

/** An event as a store recorded it. */
export interface RecordedEvent {
  streamName: string;
  id: string;
  type: string;
  /** Zero-based place in its stream. */
  revision: bigint;
  /** Place in the store's global commit order ($all); strictly increasing. */
  position: bigint;
  data: JsonValue;
  metadata: JsonObject;
  /** ISO time the store committed it; informational, never hashed. */
  created: string;
}

export interface AppendResult {
  /** The revision to expect on the next append: the last event's revision. */
  nextExpectedRevision: bigint;
  /** Commit position of the last event of the append. */
  position: bigint;
  /** true: events were written; false: an idempotent retry wrote nothing; absent: the backend cannot tell. */
  written?: boolean;
}

export type Direction = 'forwards' | 'backwards';

export interface ReadStreamOptions {
  direction?: Direction;
  /** Inclusive. Default: 'start' forwards, 'end' backwards. */
  fromRevision?: 'start' | 'end' | bigint;
  maxCount?: number;
}

export interface ReadAllOptions {
  direction?: Direction;
  /** Inclusive commit position. Default: 'start' forwards, 'end' backwards. */
  fromPosition?: 'start' | 'end' | bigint;
  maxCount?: number;
}

export const formatExpected = (expected: ExpectedRevision): string =>
  typeof expected === 'bigint' ? expected.toString() : expected;

export const parseExpected = (text: string): ExpectedRevision | null => {
  if (text === 'any' || text === 'no_stream' || text === 'stream_exists') return text;
  return /^\d+$/.test(text) ? BigInt(text) : null;
};
