import type { SessionStarted } from './started.js';
import type { TurnEnded, TurnLeaseRenewed, TurnStarted } from './turns.js';
import type { MessageAppended, MessageRewritten } from './messages.js';
import type { HistoryCompacted, SessionChildLinked, SessionContinuationWithdrawn, SessionContinued, SessionEnded, SessionReopened } from './segments.js';
import type { HistoryRewound } from './rewound.js';

/** Every session event type and the current shape of its data. */
export interface SessionEventDataMap {
  'session.started': SessionStarted;
  'turn.started': TurnStarted;
  'turn.lease_renewed': TurnLeaseRenewed;
  'turn.ended': TurnEnded;
  'message.appended': MessageAppended;
  'message.rewritten': MessageRewritten;
  'history.compacted': HistoryCompacted;
  'history.rewound': HistoryRewound;
  'session.continued': SessionContinued;
  'session.continuation_withdrawn': SessionContinuationWithdrawn;
  'session.child_linked': SessionChildLinked;
  'session.ended': SessionEnded;
  'session.reopened': SessionReopened;
}

export type SessionEventType = keyof SessionEventDataMap;

export const SESSION_EVENT_TYPES: readonly SessionEventType[] = [
  'session.started',
  'turn.started',
  'turn.lease_renewed',
  'turn.ended',
  'message.appended',
  'message.rewritten',
  'history.compacted',
  'history.rewound',
  'session.continued',
  'session.continuation_withdrawn',
  'session.child_linked',
  'session.ended',
  'session.reopened',
];

export const isSessionEventType = (type: string): type is SessionEventType =>
  (SESSION_EVENT_TYPES as readonly string[]).includes(type);

/** An event about to be written: its type and current-version data. */
export type SessionEvent = { [K in SessionEventType]: { type: K; data: SessionEventDataMap[K] } }[SessionEventType];

/** Where a stored session event sits. */
export interface SessionRecordEnvelope {
  /** The segment (stream `session-<id>`) that holds the event. */
  sessionId: string;
  eventId: string;
  revision: bigint;
  position: bigint;
  /** ISO time the store committed the event. */
  created: string;
  /** The schema version the event was stored with (before upcasting). */
  storedVersion: number;
}

/** A stored session event, validated and upcast to the current version. */
export type SessionRecord = { [K in SessionEventType]: SessionRecordEnvelope & { type: K; data: SessionEventDataMap[K] } }[SessionEventType];

export type SessionRecordOf<K extends SessionEventType> = Extract<SessionRecord, { type: K }>;

/** The metadata key that carries an event's schema version (absent: version 1). */
export const SCHEMA_VERSION_KEY = 'schemaVersion';
