import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type LedgerError, type RecordedEvent } from '@session-ledger/core';
import { sessionIdOf } from './streams.js';
import { SESSION_SCHEMAS } from './registry.js';
import { isSessionEventType, type SessionRecord } from './types.js';
import { decodeVersioned } from '../versioned.js';

/**
 * Validation on read: checks the stored data against the schema of its stored version, then
 * lifts it through each upcaster to the current version. A newer version than this reader
 * knows is `unsupported_version`; anything malformed is `invalid_input`.
 * (Plain control flow inside: this runs once per stored event on every read.)
 */
export const decodeSessionEventE = (event: RecordedEvent): E.Either<LedgerError, SessionRecord> => {
  const sessionId = sessionIdOf(event.streamName);
  if (sessionId === null) return E.left(invalidInput(`Not a session stream: ${event.streamName}`, 'stream'));
  const type = event.type;
  const where = () => `${type} event at ${event.streamName}@${event.revision}`;
  if (!isSessionEventType(type)) return E.left(invalidInput(`Unknown session event type: ${where()}`, 'type'));
  const schemas = SESSION_SCHEMAS[type];
  const decoded = decodeVersioned(event, schemas);
  if (E.isLeft(decoded)) return decoded;
  const { data, version } = decoded.right;
  return E.right({
    sessionId,
    eventId: event.id,
    revision: event.revision,
    position: event.position,
    created: event.created,
    storedVersion: version,
    type,
    data,
  } as SessionRecord);
};

/** The throwing form, for readers that fail as a whole on the first bad event. */
export const decodeSessionEvent = (event: RecordedEvent): SessionRecord => {
  const result = decodeSessionEventE(event);
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

export const decodeSessionEvents = (events: readonly RecordedEvent[]): SessionRecord[] => events.map(decodeSessionEvent);
