import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type LedgerError, type RecordedEvent } from '@session-ledger/core';
import { MEMORY_PREFIX } from './streams.js';
import { MEMORY_SCHEMAS } from './registry.js';
import { causationV1 } from './schemas.js';
import { isMemoryEventType, type MemoryRecord } from './types.js';
import { decodeVersioned } from '../versioned.js';

/**
 * Validation on read, like the session decoder: stored data against its stored version's schema,
 * lifted to the current version. A newer version is `unsupported_version`, anything malformed
 * `invalid_input`. A missing or malformed causation reads as none.
 */
export const decodeMemoryEventE = (event: RecordedEvent): E.Either<LedgerError, MemoryRecord> => {
  if (!event.streamName.startsWith(MEMORY_PREFIX)) return E.left(invalidInput(`Not a memory stream: ${event.streamName}`, 'stream'));
  const type = event.type;
  const where = () => `${type} event at ${event.streamName}@${event.revision}`;
  if (!isMemoryEventType(type)) return E.left(invalidInput(`Unknown memory event type: ${where()}`, 'type'));
  const schemas = MEMORY_SCHEMAS[type];
  const decoded = decodeVersioned(event, schemas);
  if (E.isLeft(decoded)) return decoded;
  const { data, version } = decoded.right;
  const cause = causationV1.safeParse(event.metadata.causation ?? {});
  return E.right({
    profile: event.streamName.slice(MEMORY_PREFIX.length),
    eventId: event.id,
    revision: event.revision,
    position: event.position,
    created: event.created,
    storedVersion: version,
    causation: cause.success ? cause.data : {},
    type,
    data,
  } as MemoryRecord);
};

export const decodeMemoryEvent = (event: RecordedEvent): MemoryRecord => {
  const result = decodeMemoryEventE(event);
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

/** Decodes the memory events of a stream, ignoring event types that are not memory mutations. */
export const decodeMemoryEvents = (events: readonly RecordedEvent[]): MemoryRecord[] =>
  events.filter((event) => isMemoryEventType(event.type)).map(decodeMemoryEvent);
