import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type ExpectedRevision, type JsonObject, type RecordedEvent } from '@session-ledger/core';
import { MEMORY_PREFIX } from '../memory/streams.js';
import { SESSION_PREFIX } from '../session/streams.js';
import { causationV1 } from '../memory/schemas.js';
import { MEMORY_SCHEMAS } from '../memory/registry.js';
import { isMemoryEventType } from '../memory/types.js';
import { isDotSegment, isSafeId } from '../session/ids.js';
import type { EventSchemas } from '../session/registry.js';
import { SESSION_SCHEMAS } from '../session/registry.js';
import { isSessionEventType } from '../session/types.js';
import { decodeVersioned } from '../versioned.js';
import { checkName, checkWellFormedJson } from './wellFormed.js';

/** Streams only session-ledger itself writes: the audit trail, provider status, checkpoints. */
export const LEDGER_PREFIX = 'ledger-';

/**
 * The names of the event feeds' own frames (HTTP Server-Sent Events: the one `caught-up` after the
 * history, an `error` before the feed closes). A stored event is sent under its type, so a raw event of
 * one of these types would pass for the server's own frame: every raw surface refuses them.
 */
export const FEED_FRAMES = { caughtUp: 'caught-up', error: 'error' } as const;
export const FEED_FRAME_NAMES: ReadonlySet<string> = new Set(Object.values(FEED_FRAMES));

/** The stream families whose events have schemas (or, for `ledger-`, a single writer). */
export const RESERVED_PREFIXES = [SESSION_PREFIX, MEMORY_PREFIX, LEDGER_PREFIX] as const;

/** One event as a raw surface (`events append`, `POST /streams/:stream`) is asked to append it. */
export interface RawAppend {
  stream: string;
  id: string;
  type: string;
  data: unknown;
  metadata?: JsonObject;
  expectedRevision: ExpectedRevision;
}

const refuse = (stream: string, why: string, field = 'type') => invalidInput(`Refused raw append to ${stream}: ${why}`, field);

/** Validates like the reader will (the schema of the version the metadata names), so a stored event always decodes. */
const checkSchema = (append: RawAppend, schemas: EventSchemas): void => {
  const event: RecordedEvent = {
    streamName: append.stream,
    id: append.id,
    type: append.type,
    revision: 0n,
    position: 0n,
    data: append.data as RecordedEvent['data'],
    metadata: append.metadata ?? {},
    created: '',
  };
  const decoded = decodeVersioned(event, schemas, `${append.type} event`);
  if (E.isLeft(decoded)) throw refuse(append.stream, decoded.left.message, 'data');
};

/**
 * A restored segment stays readable: it holds only valid session events, begins with its own
 * `session.started` (appended to no stream), and nothing else creates it.
 */
const checkSession = (append: RawAppend): void => {
  const { stream, type, expectedRevision } = append;
  const sessionId = stream.slice(SESSION_PREFIX.length);
  if (!isSafeId(sessionId)) throw refuse(stream, `${JSON.stringify(sessionId)} is not a session id (1-200 letters, digits, '_', '-', '.' or ':')`, 'stream');
  if (!isSessionEventType(type)) throw refuse(stream, `${JSON.stringify(type)} is not a session event type (session- streams hold only valid session events)`);
  checkSchema(append, SESSION_SCHEMAS[type]);
  if (type === 'session.started') {
    if ((append.data as { sessionId?: unknown }).sessionId !== sessionId) throw refuse(stream, `session.started names another session than ${sessionId}`, 'data');
    if (expectedRevision !== 'no_stream') throw refuse(stream, 'session.started begins a segment: only with expected revision no_stream');
    return;
  }
  if (expectedRevision === 'no_stream') throw refuse(stream, `${type} cannot begin a segment (a segment begins with session.started)`);
};

const checkMemory = (append: RawAppend): void => {
  const { stream, type } = append;
  if (stream.length === MEMORY_PREFIX.length) throw refuse(stream, 'a memory stream names its profile', 'stream');
  if (!isMemoryEventType(type)) throw refuse(stream, `${JSON.stringify(type)} is not a memory event type (memory- streams hold only valid memory events)`);
  checkSchema(append, MEMORY_SCHEMAS[type]);
  const causation = append.metadata?.causation;
  if (causation !== undefined && !causationV1.safeParse(causation).success) throw refuse(stream, 'metadata.causation is not {sessionId?, turnId?}', 'metadata');
};

/** What every surface that appends events as given refuses: bad names and strings, EventStoreDB's own names, feed frames, and any ledger- stream. */
const checkCommon = (append: RawAppend): void => {
  // EventStoreDB refuses an empty stream name: a ledger holding one would not move to it whole.
  if (append.stream === '') throw invalidInput('Refused raw append: the stream name is empty', 'stream');
  checkName('stream', append.stream);
  checkName('type', append.type);
  checkName('event id', append.id);
  checkWellFormedJson('data', append.data);
  checkWellFormedJson('metadata', append.metadata ?? {});
  // EventStoreDB's own names: its system streams ($all, $settings, $$stream metadata, $et-/$ce- projections)
  // and system event types, which $all's readers skip. Stored on SQLite, they would not move to it whole.
  if (append.stream.startsWith('$')) throw refuse(append.stream, 'a stream name beginning with $ is EventStoreDB\'s own (system streams, metadata streams): the ledger would not move to it whole', 'stream');
  if (append.type.startsWith('$')) throw refuse(append.stream, `${JSON.stringify(append.type)}: an event type beginning with $ is EventStoreDB's own (system events, which $all's readers skip)`);
  if (FEED_FRAME_NAMES.has(append.type)) throw refuse(append.stream, `${JSON.stringify(append.type)}: an event feed's own frame is named so (SSE), and an event of that type would pass for it`);
  if (append.stream.startsWith(LEDGER_PREFIX)) {
    throw refuse(append.stream, `ledger- streams are written only by session-ledger itself; a raw ${JSON.stringify(append.type)} event is never appended there`, 'stream');
  }
};

/**
 * The check of an event restored as it was stored (`sessions import` of a jsonl export, which keeps
 * ids, revisions and hashes): checkCommon, and the reserved families hold only what their readers
 * decode (`session-`, `memory-`: the event's schema; a segment begins with its own session.started).
 * Throws invalid_input in one line naming the type.
 */
export const checkRestoredEvent = (append: RawAppend): void => {
  checkCommon(append);
  if (append.stream.startsWith(SESSION_PREFIX)) checkSession(append);
  else if (append.stream.startsWith(MEMORY_PREFIX)) checkMemory(append);
};

/** The writers of the domain families, which keep rules no schema can. */
const WRITERS: ReadonlyArray<[string, string]> = [
  [SESSION_PREFIX, 'the sessions API (sessions, turns and messages commands; /sessions/*), which keeps the rules of turns, leases, seals and message ids'],
  [MEMORY_PREFIX, 'the memory ledger (memory add|replace|remove|apply; /memory/*), which keeps the rules of entry ids, duplicates, previousContent and budgets'],
];

/**
 * The one check of every raw append (the CLI's `events append`, HTTP `POST /streams/:stream`):
 * checkCommon, and no raw event is appended to a reserved family. `ledger-` streams are written only
 * by session-ledger's own modules (so an audit record cannot be forged); `session-` and `memory-`
 * streams only by their writers, because an event their readers decode can still break the rules
 * their deciders keep: a second live turn, a message id stored twice, an add that reuses an entry id
 * and so changes another entry, a replace whose previousContent is not the entry's, a profile over
 * its budget (outside test, session 17). Throws invalid_input in one line.
 */
export const checkRawAppend = (append: RawAppend): void => {
  checkCommon(append);
  // As for new session ids: `/streams/..` is `/` to every URL parser, so no client could read it back (outside test, session 27).
  if (isDotSegment(append.stream)) throw refuse(append.stream, `a stream cannot be named "${append.stream}": URLs resolve "." and ".." away (RFC 3986), so no address could name it`, 'stream');
  for (const [prefix, writer] of WRITERS) {
    if (append.stream.startsWith(prefix)) throw refuse(append.stream, `${prefix} streams are written only through ${writer}; a raw ${JSON.stringify(append.type)} event is never appended there`, 'stream');
  }
};
