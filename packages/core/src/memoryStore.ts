import type { EventData, ExpectedRevision, ReadAllOptions, ReadStreamOptions, RecordedEvent } from './envelope.js';
import type { EventStore } from './port.js';
import { matchesFilter } from './port.js';
import { checkDeleteExpected, decideAppend, validateEvents, type StreamState } from './appendRules.js';
import { catchUpSubscription, changeNotifier } from './catchUp.js';
import { streamDeleted, streamNotFound } from './errors.js';
import { lowerBound, readAllWindow, readStreamWindow } from './readWindow.js';
import type { JsonObject } from './json.js';

interface MemoryStream extends StreamState {
  /** The live events only (deletion erases), contiguous in revision. */
  events: RecordedEvent[];
  /** Event id to revision, for idempotent retries with expected revision 'any'. */
  ids: Map<string, bigint>;
}

const byRevision = (event: RecordedEvent) => event.revision;
const byPosition = (event: RecordedEvent) => event.position;

const eventAt = (stream: MemoryStream | undefined, revision: bigint): RecordedEvent | undefined => {
  const first = stream?.events[0];
  if (!stream || !first || revision < first.revision) return undefined;
  return stream.events[Number(revision - first.revision)];
};

const emptyStream = (): MemoryStream => ({ lastRevision: -1n, firstLive: 0n, tombstoned: false, events: [], ids: new Map() });

const copy = <T>(value: T): T => structuredClone(value);

/**
 * What `$all` holds after a delete. 'erased' (default, as SQLite): the deleted events leave `$all`
 * at once. 'until-scavenge' (as an EventStoreDB server): they stay in `$all` reads and catch-up
 * subscriptions to `$all` until `scavenge()`; stream reads hide them at once either way.
 */
export type DeletedEventsInAll = 'erased' | 'until-scavenge';

export interface MemoryStoreOptions {
  name?: string;
  deletedEventsInAll?: DeletedEventsInAll;
}

export interface MemoryStore extends EventStore {
  /** Removes deleted streams' events from `$all` (a no-op when they are erased at once); returns how many. */
  scavenge(): Promise<number>;
}

/** The in-memory store: the reference adapter, for tests and for `memory:` URLs. */
export const createMemoryStore = (options: MemoryStoreOptions = {}): MemoryStore => {
  const keepInAll = options.deletedEventsInAll === 'until-scavenge';
  const streams = new Map<string, MemoryStream>();
  let all: RecordedEvent[] = [];
  let lastPosition = 0n;
  const checkpoints = new Map<string, bigint>();
  const changes = changeNotifier();
  let closed = false;

  const readable = (name: string): RecordedEvent[] => {
    const stream = streams.get(name);
    if (stream?.tombstoned) throw streamDeleted(name);
    if (!stream || stream.lastRevision < stream.firstLive) throw streamNotFound(name);
    return stream.events;
  };

  const erase = (name: string, upTo: bigint) => {
    if (!keepInAll) all = all.filter((event) => !(event.streamName === name && event.revision <= upTo));
    const stream = streams.get(name);
    if (stream) {
      stream.events = stream.events.filter((event) => event.revision > upTo);
      stream.ids = new Map(stream.events.map((event) => [event.id, event.revision]));
    }
  };

  const remove = (name: string, expectedRevision: ExpectedRevision, tombstone: boolean) => {
    const stream = streams.get(name);
    checkDeleteExpected(name, stream, expectedRevision);
    const state = stream ?? emptyStream();
    erase(name, state.lastRevision);
    state.firstLive = state.lastRevision + 1n;
    state.tombstoned = tombstone;
    streams.set(name, state);
    changes.notify();
    return { position: null };
  };

  /** An event of `$all` whose stream still shows it: not tombstoned, at or after the first live revision. */
  const isLive = (event: RecordedEvent) => {
    const stream = streams.get(event.streamName);
    return stream !== undefined && !stream.tombstoned && event.revision >= stream.firstLive;
  };

  const store: MemoryStore = {
    name: options.name ?? 'memory',
    async appendToStream(name: string, events: EventData[], opts = {}) {
      validateEvents(events);
      const stream = streams.get(name);
      const decision = decideAppend(
        name,
        stream,
        events,
        opts.expectedRevision ?? 'any',
        (revision) => eventAt(stream, revision)?.id,
        (id) => stream?.ids.get(id),
      );
      if (decision.kind === 'idempotent') {
        const last = eventAt(stream, decision.lastRevision)!;
        return { nextExpectedRevision: decision.lastRevision, position: last.position, written: false };
      }
      const state = stream ?? emptyStream();
      const created = new Date().toISOString();
      const recorded = events.map((event, index) => {
        lastPosition += 1n;
        return {
          streamName: name,
          id: event.id,
          type: event.type,
          revision: decision.firstRevision + BigInt(index),
          position: lastPosition,
          data: copy(event.data),
          metadata: copy(event.metadata ?? ({} as JsonObject)),
          created,
        };
      });
      for (const event of recorded) {
        state.events.push(event);
        if (!state.ids.has(event.id)) state.ids.set(event.id, event.revision);
      }
      state.lastRevision = decision.firstRevision + BigInt(events.length) - 1n;
      streams.set(name, state);
      all.push(...recorded);
      if (recorded.length > 0) changes.notify();
      return { nextExpectedRevision: state.lastRevision, position: lastPosition, written: recorded.length > 0 };
    },
    async readStream(name: string, opts: ReadStreamOptions = {}) {
      return readStreamWindow(readable(name), opts).map(copy);
    },
    async readAll(opts: ReadAllOptions = {}) {
      return readAllWindow(all, opts).map(copy);
    },
    async deleteStream(name, opts = {}) {
      return remove(name, opts.expectedRevision ?? 'any', false);
    },
    async tombstoneStream(name, opts = {}) {
      return remove(name, opts.expectedRevision ?? 'any', true);
    },
    subscribeToStream(name, opts = {}) {
      return catchUpSubscription(
        {
          readAfter: async (after, max) => {
            const stream = streams.get(name);
            if (stream?.tombstoned) throw streamDeleted(name);
            if (!stream) return { events: [], more: false };
            const start = after === null ? 0 : lowerBound(stream.events, after + 1n, byRevision);
            // In memory the history is held already: a page is bounded by count only.
            return { events: stream.events.slice(start, start + max).map(copy), more: start + max < stream.events.length };
          },
          keyOf: (event) => event.revision,
          head: async () => {
            const stream = streams.get(name);
            return stream && stream.lastRevision >= 0n ? stream.lastRevision : null;
          },
          changeToken: () => changes.version(),
          waitForChange: (token, signal) => changes.wait(token, signal),
        },
        opts.fromRevision ?? 'start',
      );
    },
    subscribeToAll(opts = {}) {
      return catchUpSubscription(
        {
          readAfter: async (after, max) => {
            const start = after === null ? 0 : lowerBound(all, after + 1n, byPosition);
            return { events: all.slice(start, start + max).map(copy), more: start + max < all.length };
          },
          keyOf: (event) => event.position,
          head: async () => (lastPosition > 0n ? lastPosition : null),
          changeToken: () => changes.version(),
          waitForChange: (token, signal) => changes.wait(token, signal),
          accept: (event) => matchesFilter(opts.filter, event),
        },
        opts.fromPosition ?? 'start',
      );
    },
    async readCheckpoint(name) {
      return checkpoints.get(name) ?? null;
    },
    async storeCheckpoint(name, position) {
      checkpoints.set(name, position);
    },
    async revisionOfId(name, id) {
      const stream = streams.get(name);
      const revision = stream && !stream.tombstoned ? stream.ids.get(id) : undefined;
      return revision !== undefined && revision >= stream!.firstLive ? revision : undefined;
    },
    async streamState(name) {
      const stream = streams.get(name);
      return stream ? { lastRevision: stream.lastRevision, firstLive: stream.firstLive, tombstoned: stream.tombstoned } : null;
    },
    async listStreams() {
      return [...streams]
        .filter(([, stream]) => stream.lastRevision >= 0n || stream.tombstoned)
        .map(([name, stream]) => ({
          name,
          lastRevision: stream.lastRevision,
          firstLive: stream.firstLive,
          tombstoned: stream.tombstoned,
        }));
    },
    async scavenge() {
      const before = all.length;
      all = all.filter(isLive);
      return before - all.length;
    },
    async close() {
      closed = true;
      void closed;
    },
  };
  return store;
};
