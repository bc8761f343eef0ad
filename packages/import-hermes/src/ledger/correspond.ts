import { isJsonObject, type JsonObject, type JsonValue, type RecordedEvent } from '@session-ledger/core';
import type { PlannedEvent } from '../mapping/stepEvent.js';
import type { SyncEvent } from './syncStream.js';

const objectOf = (value: JsonValue | undefined): JsonObject => (isJsonObject(value) ? value : {});

/** What names a segment's start or its continuation whatever its summary: the summary row's id changes when Hermes rewrites the segment. */
const identity = (type: string, data: JsonObject): string | null => {
  if (type === 'session.started') return JSON.stringify(['started', data.sessionId, data.parentId, data.link, data.startedAt]);
  if (type === 'session.continued') return JSON.stringify(['continued', data.childId]);
  return null;
};

/** A segment's start whatever its parent: what an orphaned segment's held start and the plan's root start share. */
const orphanKey = (data: JsonObject): string => JSON.stringify([data.sessionId, data.startedAt]);

/** The keys of session event data that name a message or a summary by id. */
const ID_KEYS = ['messageId', 'summaryId', 'throughMessageId', 'messageIds', 'summaryIds'];

/** The event's data with the id `from` named `to` where the data names a message or summary (never in text). */
const renamed = (data: JsonObject, from: string, to: string): JsonObject => {
  const out: JsonObject = { ...data };
  for (const key of ID_KEYS) {
    const value = out[key];
    if (value === from) out[key] = to;
    else if (Array.isArray(value)) out[key] = value.map((item) => (item === from ? to : item));
  }
  return out;
};

export interface Correspondence {
  /** The plan event a held event stands for although its id differs, if it is the plan's next (`next`). */
  of(event: RecordedEvent, next: number): number | undefined;
  /** Plan events the held event standing for the plan's event `at` also stands for (an orphaned segment's summary message). */
  alsoCovers(at: number): number[];
  /** Plan events to append, naming the summary as the ledger does. */
  renamed(events: SyncEvent[]): SyncEvent[];
  /** Whether a held continuation stood for the plan's compression end: the stream is sealed, nothing may follow. */
  sealed(): boolean;
}

/**
 * A compression segment's start and its parent's continuation name the segment's summary by the id
 * of its summary row. A rewrite of the segment in Hermes (`/retry` there: `replace_messages` inserts
 * the summary row again) gives that row a new id, so the plan's start, continuation and summary
 * message get new ids while they say what the ledger holds. The held ones stand for them: the start
 * and the continuation by what they name (segment, parent, link, start time; the child), the summary
 * message by its content. Later plan events name the summary by the ledger's id. When Hermes
 * deleted a segment's parent or its compression child, the held start or continuation stands for
 * the plan's root start or compression end (see `of`).
 */
export const correspondence = (planned: readonly SyncEvent[]): Correspondence => {
  const byIdentity = new Map<string, number>();
  const roots = new Map<string, number>();
  planned.forEach((item, index) => {
    const data = objectOf(item.event.data as JsonValue);
    const key = identity(item.event.type, data);
    if (key !== null) byIdentity.set(key, index);
    if (item.event.type === 'session.started' && data.parentId === null) roots.set(orphanKey(data), index);
  });
  /** The plan's end of a session that Hermes closed by a compression whose child it then deleted. */
  const compressionEnd = planned.findIndex((item) => item.event.type === 'session.ended' && objectOf(item.event.data as JsonValue).reason === 'compression');
  const covers = new Map<number, number[]>();
  let sealedByHeld = false;
  /** The plan's summary id → the ledger's, once the ledger's summary stands for the plan's. */
  let alias: { from: string; to: string } | null = null;
  /** Before that: the ids of a start that stands for the plan's, whose summary message is still to be matched. */
  let candidate: { from: string; to: string } | null = null;
  /** Whether the plan event is a message holding `summary`: the summary row of a segment planned as a root. */
  const saysSummary = (item: SyncEvent | undefined, summary: JsonValue | undefined): boolean =>
    item?.event.type === 'message.appended' && typeof summary === 'string' && objectOf(item.event.data as JsonValue).content === summary;
  const summaryMessage = (summaryId: string): number => planned.findIndex((item) => item.event.type === 'message.appended' && objectOf(item.event.data as JsonValue).messageId === summaryId);
  return {
    of(event, next) {
      if (event.metadata.importedFrom !== 'hermes') return undefined;
      const data = objectOf(event.data);
      const key = identity(event.type, data);
      const at = key === null ? undefined : byIdentity.get(key);
      if (at === undefined && event.type === 'session.started' && typeof data.parentId === 'string') {
        // Hermes deleted the session this segment continued (delete_session sets the parent of its
        // compression and branch children to NULL): the plan starts it as a root, the ledger holds it as
        // the continuation it was, with its parent kept. The held start stands for the plan's, and for
        // the message the plan makes of the summary row the held start carries.
        const root = roots.get(orphanKey(data));
        if (root !== next) return undefined;
        const summary = typeof data.summaryId === 'string' ? summaryMessage(data.summaryId) : -1;
        if (summary === root + 1) covers.set(root, [summary]);
        else if (typeof data.summaryId === 'string' && saysSummary(planned[root + 1], data.summary)) {
          // A /retry re-keyed the summary row before the parent went: the plan's message names the new
          // row, the held start the first (outside test, session 30, F1). The held start stands for it
          // by its text, and the ledger's id names it from now on.
          covers.set(root, [root + 1]);
          alias = candidate = { from: String(objectOf(planned[root + 1]!.event.data as JsonValue).messageId), to: data.summaryId };
        }
        return root;
      }
      if (at === undefined && event.type === 'session.continued') {
        // Hermes deleted the compression child this segment continued in (delete_session, prune_sessions):
        // the file keeps the segment ended by the compression, with no child; the ledger keeps the child.
        // The held continuation stands for that end (outside test, session 30).
        if (compressionEnd < 0 || compressionEnd !== next) return undefined;
        sealedByHeld = true;
        return compressionEnd;
      }
      if (at !== undefined) {
        if (at !== next) return undefined;
        const plannedSummary = objectOf(planned[at]!.event.data as JsonValue).summaryId;
        if (event.type === 'session.started' && typeof plannedSummary === 'string' && typeof data.summaryId === 'string' && plannedSummary !== data.summaryId) {
          candidate = { from: plannedSummary, to: data.summaryId };
          // A summary that is no message of its own (a flagged row) is the held one now; one that is waits for its message.
          if (summaryMessage(plannedSummary) < 0) alias = candidate;
        }
        return at;
      }
      if (candidate === null || event.type !== 'message.appended' || data.messageId !== candidate.to) return undefined;
      // Only in its place: a summary the rewrite moved (rows copied before it) is rewound and appended again.
      const index = summaryMessage(candidate.from);
      // A summary message an orphaned segment's held start stood for was taken with the start.
      if (index !== next && !covers.get(index - 1)?.includes(index)) return undefined;
      const planData = objectOf(planned[index]!.event.data as JsonValue);
      if (JSON.stringify(planData.content) !== JSON.stringify(data.content) || planData.role !== data.role) return undefined;
      alias = candidate;
      return index;
    },
    alsoCovers: (at) => covers.get(at) ?? [],
    sealed: () => sealedByHeld,
    renamed(events) {
      const names = alias;
      if (names === null) return events;
      return events.map((item) => ({ ...item, event: { ...item.event, data: renamed(objectOf(item.event.data as JsonValue), names.from, names.to) as PlannedEvent['data'] } }));
    },
  };
};
