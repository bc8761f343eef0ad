import type {
  AppendResult,
  EventData,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
} from './envelope.js';
import type { Subscription } from './subscription.js';
import type { StreamState } from './appendRules.js';
import type { DeletionRecord, EventLog } from './log/port.js';

/** Which events a subscription to $all delivers. Both lists empty or absent: every event. */
export interface EventFilter {
  streamNamePrefixes?: string[];
  eventTypes?: string[];
}

export interface SubscribeToStreamOptions {
  /** Exclusive: the subscription starts after this revision. Default 'start' (everything). */
  fromRevision?: 'start' | 'end' | bigint;
}

export interface SubscribeToAllOptions {
  /** Exclusive: the subscription starts after this commit position. Default 'start'. */
  fromPosition?: 'start' | 'end' | bigint;
  filter?: EventFilter;
}

export interface DeleteResult {
  position: bigint | null;
  /** What the delete erased, as the store's log recorded it (stores with a log commitment). */
  deletion?: DeletionRecord;
}

/** A stream as a store keeps it, deleted or not (see EventStore.listStreams). */
export interface StreamInfo extends StreamState {
  name: string;
}

/**
 * The storage port. It mirrors EventStoreDB's stream API and knows nothing of sessions or memory.
 * Every adapter passes the conformance suite in test/conformance.
 */
export interface EventStore {
  readonly name: string;
  appendToStream(
    stream: string,
    events: EventData[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  /** Throws stream_not_found for a missing or soft-deleted stream, stream_deleted for a tombstoned one. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Soft delete: reads say not found; a later append continues the revision numbering. */
  deleteStream(stream: string, options?: { expectedRevision?: ExpectedRevision }): Promise<DeleteResult>;
  /** Hard delete: the stream's events are erased and it can never be written or recreated. */
  tombstoneStream(stream: string, options?: { expectedRevision?: ExpectedRevision }): Promise<DeleteResult>;
  /**
   * Optional: tombstones every stream or none, each conditional on its revision (SQLite: one
   * transaction); a refusal names its stream (`details.stream`). A deletion of a conversation then
   * never leaves half of it behind when a write lands under it. EventStoreDB, which deletes one
   * stream per call, leaves it out.
   */
  tombstoneStreams?(streams: ReadonlyArray<{ stream: string; expectedRevision: ExpectedRevision }>): Promise<DeleteResult[]>;
  subscribeToStream(stream: string, options?: SubscribeToStreamOptions): Subscription;
  subscribeToAll(options?: SubscribeToAllOptions): Subscription;
  /** Named durable checkpoints, kept in the store itself. */
  readCheckpoint(name: string): Promise<bigint | null>;
  storeCheckpoint(name: string, position: bigint): Promise<void>;
  /**
   * Optional: every stream the store knows, soft-deleted and tombstoned ones included, which
   * readAll cannot show (migration carries deleted states with it). Stores that cannot list
   * streams (EventStoreDB) leave it out.
   */
  listStreams?(): Promise<StreamInfo[]>;
  /**
   * Optional: one stream's state, soft-deleted or tombstoned included; null when it was never
   * written. The ledger needs it to chain an append that follows a soft delete (the store then
   * continues the numbering, which no read can show). Stores that cannot tell leave it out.
   */
  streamState?(stream: string): Promise<StreamState | null>;
  /**
   * Optional: the live revision of `stream` holding event `id`, if any (a store with an id index).
   * The ledger uses it to recognise a retry under expectedRevision 'any' however far back its events
   * are; EventStoreDB, which has no such lookup, leaves it out (a retry is then recognised among the
   * stream's newest events only, as the server itself does).
   */
  revisionOfId?(stream: string, id: string): Promise<bigint | undefined>;
  /** Optional: the log-level Merkle commitment over every event (see log/port.ts); SQLite keeps it. */
  readonly log?: EventLog;
  /**
   * Optional, synchronous and cheap: true only when the store knows without a read that `stream`'s
   * last revision is still `revision`: nothing appended to, deleted or tombstoned it since, in this
   * process or any other. false when it moved or the store cannot tell. The command handler uses it
   * to skip the catch-up read of a cached state (decider/stateCache.ts); the append stays
   * conditional on that revision, so a stream that moves after the answer is still refused.
   *
   * With `hint`, the answer may also miss another connection's commit made since the store last
   * looked, within the current macrotask (SQLite then reads `PRAGMA data_version` once a macrotask
   * instead of once a call). Only a write conditional on that revision may rest on such an answer:
   * the store refuses it at the commit if the stream moved. The handler takes it only for a caller
   * who named no revision, and decides a refusal or a no-op, which writes nothing, again on an
   * answer without `hint`.
   */
  unchangedSince?(stream: string, revision: bigint, hint?: boolean): boolean;
  close(): Promise<void>;
}

export const matchesFilter = (filter: EventFilter | undefined, event: RecordedEvent): boolean => {
  if (!filter) return true;
  const prefixes = filter.streamNamePrefixes ?? [];
  const types = filter.eventTypes ?? [];
  if (prefixes.length > 0 && !prefixes.some((prefix) => event.streamName.startsWith(prefix))) return false;
  if (types.length > 0 && !types.includes(event.type)) return false;
  return true;
};
