import type { EventStore, RecordedEvent } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import type { DeletionReason, Lineage } from '../types.js';
import { ABANDONED_EVENT, DELETION_EVENT, INTENT_EVENT, type ExportReference } from './audit.js';
import { readAuditLog } from './auditLog.js';
import type { DeletionPlan } from './plan.js';

/** A deletion whose intent was recorded and whose outcome was not: its run stopped (killed, crashed) part way. */
export interface PendingIntent {
  /** The intent record's event id. */
  id: string;
  plan: DeletionPlan;
  reason: DeletionReason;
  export: ExportReference | null;
  at: string;
  /**
   * Streams of this intent that another run's outcome record names as deleted (a concurrent
   * deletion of the same conversation that finished): completing this intent did not delete them.
   */
  deletedByOthers: Set<string>;
}

interface IntentData {
  rootId: string;
  requestedId: string;
  lineage: Lineage;
  reason: DeletionReason;
  streams: Array<{ stream: string; revision: number | string; chainHead: string | null }>;
  export: ExportReference | null;
  at: string;
}

const pendingOf = (event: RecordedEvent, recorded: ReadonlySet<string>): PendingIntent => {
  const data = event.data as unknown as IntentData;
  return {
    id: event.id,
    plan: {
      rootId: data.rootId,
      requestedId: data.requestedId,
      lineage: data.lineage,
      streams: data.streams.map(({ stream, revision, chainHead }) => ({ stream, revision: BigInt(revision), chainHead })),
      order: data.streams.map(({ stream, revision, chainHead }) => ({ stream, revision: BigInt(revision), chainHead })),
    },
    reason: data.reason,
    export: data.export,
    at: data.at,
    deletedByOthers: new Set(data.streams.map(({ stream }) => stream).filter((stream) => recorded.has(stream))),
  };
};

/** Every recorded intent without an outcome (`retention.deleted` or `retention.deletion_abandoned` naming it), oldest first. */
export const pendingIntents = async (store: EventStore): Promise<PendingIntent[]> => {
  const log = await readAuditLog(store);
  const closed = new Set<unknown>();
  // Every stream an outcome record names as deleted: each such record closes its own intent, so for a pending one it is another run's.
  const recorded = new Set<string>();
  for (const event of log) {
    if (event.type !== DELETION_EVENT && event.type !== ABANDONED_EVENT) continue;
    const data = event.data as { intent?: unknown; deleted?: unknown };
    closed.add(data.intent);
    if (event.type === DELETION_EVENT && Array.isArray(data.deleted)) for (const stream of data.deleted) if (typeof stream === 'string') recorded.add(stream);
  }
  return log.filter((event) => event.type === INTENT_EVENT && !closed.has(event.id)).map((event) => pendingOf(event, recorded));
};

/** The pending intents that name the segment `sessionId`. */
export const intentsCovering = (pending: readonly PendingIntent[], sessionId: string): PendingIntent[] =>
  pending.filter((intent) => intent.plan.streams.some((stream) => stream.stream === sessionStream(sessionId)));
