import type { z } from 'zod';
import { sessionStartedV1 } from './started.js';
import { turnEndedV1, turnLeaseRenewedV1, turnStartedV1 } from './turns.js';
import { messageAppendedV1, messageAppendedV2, messageRewrittenV1, upcastMessageV1 } from './messages.js';
import { quickMessageAppended } from './messageQuick.js';
import { historyCompactedV1, sessionChildLinkedV1, sessionContinuationWithdrawnV1, sessionContinuedV1, sessionEndedV1, sessionReopenedV1 } from './segments.js';
import { historyRewoundV1 } from './rewound.js';
import type { SessionEventType } from './types.js';

/** One stored version of an event type: its schema and the step that lifts it to the next version. */
export interface SchemaVersion {
  schema: z.ZodType;
  /**
   * A hand-written check of the usual shape, for the hottest event types: the parsed data when it
   * applies and passes (the schema would give the same), undefined otherwise (the schema decides).
   */
  quick?: (data: unknown) => unknown;
  /** Absent on the current version. */
  upcast?: (data: never) => unknown;
}

export interface EventSchemas {
  current: number;
  /** Index 0 is version 1. */
  versions: SchemaVersion[];
}

const only = (schema: z.ZodType): EventSchemas => ({ current: 1, versions: [{ schema }] });

/** Every session event type, its current version, and how older versions are read. */
export const SESSION_SCHEMAS: Record<SessionEventType, EventSchemas> = {
  'session.started': only(sessionStartedV1),
  'turn.started': only(turnStartedV1),
  'turn.lease_renewed': only(turnLeaseRenewedV1),
  'turn.ended': only(turnEndedV1),
  'message.appended': {
    current: 2,
    versions: [{ schema: messageAppendedV1, upcast: upcastMessageV1 }, { schema: messageAppendedV2, quick: quickMessageAppended }],
  },
  'message.rewritten': only(messageRewrittenV1),
  'history.compacted': only(historyCompactedV1),
  'history.rewound': only(historyRewoundV1),
  'session.continued': only(sessionContinuedV1),
  'session.continuation_withdrawn': only(sessionContinuationWithdrawnV1),
  'session.child_linked': only(sessionChildLinkedV1),
  'session.ended': only(sessionEndedV1),
  'session.reopened': only(sessionReopenedV1),
};

export const currentVersionOf = (type: SessionEventType): number => SESSION_SCHEMAS[type].current;
