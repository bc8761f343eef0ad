import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, ledgerError, sessionIdOf, type LedgerError, type RecordedEvent } from '@session-ledger/core';
import { invalidEvent } from './issues.js';
import { SESSION_SCHEMAS } from './registry.js';
import { isSessionEventType, SCHEMA_VERSION_KEY, type SessionRecord } from './types.js';

const versionOf = (event: RecordedEvent): number | LedgerError => {
  const value = event.metadata[SCHEMA_VERSION_KEY];
  if (value === undefined) return 1;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  return invalidInput(`Bad ${SCHEMA_VERSION_KEY} on ${event.streamName}@${event.revision}: ${JSON.stringify(value)}`, SCHEMA_VERSION_KEY);
};

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
  const version = versionOf(event);
  if (typeof version !== 'number') return E.left(version);
  if (version > schemas.current) {
    return E.left(
      ledgerError('unsupported_version', `${where()} has schema version ${version}; this reader knows up to ${schemas.current}`, {
        eventType: type,
        version,
        supported: schemas.current,
      }),
    );
  }
  let data: unknown = event.data;
  for (let v = version; v <= schemas.current; v += 1) {
    const step = schemas.versions[v - 1]!;
    const parsed = step.schema.safeParse(data);
    if (!parsed.success) return E.left(invalidEvent(`${where()} (v${v})`, parsed.error));
    data = step.upcast ? step.upcast(parsed.data as never) : parsed.data;
  }
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
