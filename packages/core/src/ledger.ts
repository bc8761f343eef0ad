import { canonicalJson } from './canonical.js';
import { hashOf, HASH, PREV_HASH, verifyStreamChain, type BrokenLink } from './chain.js';
import { commandHandler, type Handled, type HandleOptions, type StreamView } from './decider/commandHandler.js';
import type { Decider } from './decider/decider.js';
import { conflictBackoff, defaultConflictRetry, type ConflictRetryPolicy } from './decider/retryPolicy.js';
import type { AppendResult, EventData, ExpectedRevision, RecordedEvent } from './envelope.js';
import { invalidInput, isLedgerError, ledgerError, wrongExpectedVersion } from './errors.js';
import { liveStreamNames } from './liveEvents.js';
import { handOverTexts, sealedChainHash } from './sealText.js';
import { readStreamIfAny } from './streamRead.js';
import { usualSeal } from './usualSeal.js';
import type { JsonObject, JsonValue } from './json.js';
import type { EventStore } from './port.js';

/** An event as a writer hands it to the ledger; the ledger adds the chain metadata. */
export interface NewEvent {
  id: string;
  type: string;
  data: JsonValue;
  metadata?: JsonObject;
}

/** The chain head an append continues: the revision it is conditional on and that event's hash. */
export interface ChainHead {
  revision: bigint;
  hash: string | null;
}

/** An append's result with the head it left (the handler keeps it, so the next append reads nothing). */
export type LedgerAppendResult = AppendResult & { head: ChainHead | null };

export interface LedgerAppendOptions {
  expectedRevision?: ExpectedRevision;
  /**
   * The head at an exact expected revision, when the caller knows it (its own last append, or a
   * read). Events never change, so a head of the right revision is always right; a stale one can
   * only meet a moved stream, which the store refuses.
   */
  head?: ChainHead | null;
}

export interface Ledger {
  readonly store: EventStore;
  /**
   * Appends with the hash chain. Same semantics as the store's append, except that a retry is
   * recognised only when it is the same write: the same event ids with the same type, data and
   * metadata. The same ids with other content are refused (`duplicate`), never a silent no-op.
   */
  append(stream: string, events: NewEvent[], options?: LedgerAppendOptions): Promise<AppendResult>;
  /** The decided write path: see decider/commandHandler.ts. */
  handle<Command, State, Reply>(decider: Decider<Command, State, Reply>, stream: string, command: Command, options?: HandleOptions): Promise<Handled<State, Reply>>;
  /** A decider's state of one stream, read through the same cache as `handle`. */
  load<Command, State, Reply>(decider: Decider<Command, State, Reply>, stream: string): Promise<StreamView<State>>;
  /** Recomputes the chain of one stream, or of every stream when none is named. */
  verify(options?: { stream?: string; onProgress?: (done: number) => void }): Promise<VerifyReport>;
}

export interface VerifyReport {
  streams: number;
  events: number;
  broken: BrokenLink | null;
  /**
   * Events of deleted streams that `$all` still holds (EventStoreDB keeps them until a scavenge):
   * accounted for and not checked, as their streams no longer show them. Absent when there are none.
   */
  deletedInAll?: number;
}

const sealEvents = (stream: string, base: ChainHead | null, events: NewEvent[]): EventData[] => {
  let prev = base?.hash ?? null;
  let revision = (base?.revision ?? -1n) + 1n;
  // The store writes the data texts the chain texts already hold (sealText.ts) instead of serialising the data again
  // (kept for the bench row "hermes import ... against plain batched inserts", issue 16: >= 0.3).
  const texts: Array<string | undefined> = [];
  // The usual event's metadata text too (usualSeal.ts; benchmark row "sqlite single-event appends with the log commitment").
  const metadataTexts: Array<string | undefined> = [];
  const sealed = events.map((event): EventData => {
    const given = event.metadata;
    if (given && (HASH in given || PREV_HASH in given)) throw invalidInput(`Metadata keys ${PREV_HASH} and ${HASH} belong to the ledger`);
    // prevHash first: before the writers' usual keys (schemaVersion) that is canonical order already.
    const metadata: JsonObject = { [PREV_HASH]: prev, ...given };
    const usual = usualSeal(stream, revision, event.id, event.type, event.data, metadata);
    const { hash, dataText } = usual ?? sealedChainHash({ stream, revision, id: event.id, type: event.type, data: event.data, metadata });
    // The hash covers the metadata without it, so it is added to the same object afterwards (one copy per event).
    metadata[HASH] = hash;
    prev = hash;
    revision += 1n;
    texts.push(dataText);
    metadataTexts.push(usual?.metadataText);
    return { id: event.id, type: event.type, data: event.data, metadata };
  });
  handOverTexts(sealed, texts, metadataTexts);
  return sealed;
};

/** The writer's metadata of a recorded event: without the ledger's chain keys. */
const writerMetadata = (metadata: JsonObject): JsonObject => {
  const { [HASH]: _hash, [PREV_HASH]: _prev, ...rest } = metadata;
  return rest;
};

/** The head an append of `sealed` left: its last event's revision and hash (none when it wrote nothing). */
const headAfter = (sealed: EventData[], result: AppendResult): ChainHead | null => {
  const last = sealed[sealed.length - 1];
  return last && result.written !== false ? { revision: result.nextExpectedRevision, hash: last.metadata![HASH] as string } : null;
};

/** Whether a stored event is the same write as `event`: same id, type, data and writer metadata. */
export const sameWrite = (stored: RecordedEvent, event: NewEvent): boolean =>
  stored.id === event.id &&
  stored.type === event.type &&
  canonicalJson(stored.data) === canonicalJson(event.data) &&
  canonicalJson(writerMetadata(stored.metadata)) === canonicalJson(event.metadata ?? {});

/**
 * The ledger layer: it computes every event's chain link before the store sees it, so the chain
 * is the same on every backend. The base of the chain is always the exact revision the store
 * checks, so two racing writers can never fork a chain: one of them gets WrongExpectedVersion.
 * The base comes from the caller (the command handler's state), from the head its own last raw
 * append at an exact revision left, or from one read at the exact revision.
 */
/** How many of a stream's newest events a raw 'any' append looks through for its own ids. */
const RECENT = 64;
/** How many streams' heads the raw append path keeps (see `rawHeads`). */
const RAW_HEADS = 512;

export const createLedger = (store: EventStore, options: { retry?: ConflictRetryPolicy } = {}): Ledger => {
  const retry = options.retry ?? defaultConflictRetry;

  const readHead = async (stream: string, at?: bigint): Promise<ChainHead | null> => {
    const events = await readStreamIfAny(store, stream, at === undefined ? { direction: 'backwards', maxCount: 1 } : { fromRevision: at, maxCount: 1 });
    const last = events?.[0];
    if (!last || (at !== undefined && last.revision !== at)) return null;
    return { revision: last.revision, hash: hashOf(last) };
  };

  /** The stored events an idempotent answer points at; a retry must be the same write. */
  const checkReplay = async (stream: string, events: NewEvent[], result: AppendResult): Promise<AppendResult> => {
    const first = result.nextExpectedRevision - BigInt(events.length) + 1n;
    const stored = await store.readStream(stream, { fromRevision: first, maxCount: events.length });
    const differing = events.findIndex((event, index) => !stored[index] || !sameWrite(stored[index]!, event));
    if (differing >= 0) {
      const event = events[differing]!;
      throw ledgerError('duplicate', `Event id ${event.id} is already stored in ${stream} with other content`, { what: `event ${event.id} in ${stream}` });
    }
    return result;
  };

  /** `events` against the stored run that starts with the first one's id: the same write (checked), or a partial overlap (refused). */
  const replayOf = async (stream: string, events: NewEvent[], stored: RecordedEvent[], current: bigint): Promise<AppendResult> => {
    if (stored.length < events.length || stored.some((event, index) => event.id !== events[index]!.id)) {
      throw wrongExpectedVersion(stream, 'any', current.toString());
    }
    const last = stored[stored.length - 1]!;
    return checkReplay(stream, events, { nextExpectedRevision: last.revision, position: last.position, written: false });
  };

  /**
   * A raw 'any' append whose first event id is already in the stream: the same write again (its ids
   * stored in order, with the same content) writes nothing; a batch that overlaps them only in part,
   * or the same ids with other content, is refused (EventStoreDB answers a partial overlap with
   * WrongExpectedVersion). Where the store keeps an id index (`revisionOfId`: SQLite, memory) the id
   * is looked up there, after the head is read, so a retry is a no-op however many events landed
   * since; EventStoreDB, which has no such lookup, looks among the stream's newest events, read with
   * the head. Either way no id stored before the head was read is missed, and an id stored after it
   * is found by the store itself (its replay at the revision after the head), never written again.
   */
  const replayOrHead = async (stream: string, events: NewEvent[]): Promise<{ replay: AppendResult } | { head: ChainHead | null }> => {
    // The head, then the id index: one event read instead of the newest 64 (benchmark row "sqlite
    // single-event appends: ledger, expected revision any": the window's read and parse were most of it).
    if (store.revisionOfId && events.length > 0) {
      const head = await readHead(stream);
      const at = await store.revisionOfId(stream, events[0]!.id);
      if (at === undefined) return { head };
      const stored = await store.readStream(stream, { fromRevision: at, maxCount: events.length });
      return { replay: await replayOf(stream, events, stored, head?.revision ?? -1n) };
    }
    const window = Math.max(events.length, RECENT);
    const recent = ((await readStreamIfAny(store, stream, { direction: 'backwards', maxCount: window })) ?? []).reverse();
    const last = recent[recent.length - 1];
    const head = last ? { revision: last.revision, hash: hashOf(last) } : null;
    if (events.length === 0) return { head };
    const current = last?.revision ?? -1n;
    const start = recent.findIndex((event) => event.id === events[0]!.id);
    if (start >= 0) return { replay: await replayOf(stream, events, recent.slice(start, start + events.length), current) };
    return { head };
  };

  /**
   * After a soft delete the store continues the numbering, so the chain must start at the revision
   * after the deleted tail (with no predecessor: the deleted events are gone). Stores that cannot
   * tell the state start at 0, as for a new stream.
   */
  const softDeletedTail = async (stream: string): Promise<ChainHead | null> => {
    const state = await store.streamState?.(stream);
    return state && !state.tombstoned && state.lastRevision >= 0n ? { revision: state.lastRevision, hash: null } : null;
  };

  /** One conditional append at an exact revision (or no_stream), chained on `head` or on a read of it. */
  const appendAt = async (stream: string, events: NewEvent[], expected: bigint | 'no_stream', head?: ChainHead | null): Promise<LedgerAppendResult> => {
    let base: ChainHead | null;
    if (expected === 'no_stream') base = null;
    else base = head && head.revision === expected ? head : await readHead(stream, expected);
    const sealed = sealEvents(stream, base ?? (await softDeletedTail(stream)), events);
    const result = (await store.appendToStream(stream, sealed, { expectedRevision: expected })) as LedgerAppendResult;
    result.head = headAfter(sealed, result);
    return result;
  };

  /** 'any' and 'stream_exists': the head is the store's, read again when another writer moved it (the one retry policy). */
  const appendLoose = async (stream: string, events: NewEvent[], expected: 'any' | 'stream_exists'): Promise<AppendResult> => {
    for (let attempt = 1; ; attempt += 1) {
      // Under 'any', the replay check and the head come from one read on every attempt: a check made
      // before another writer stored the same ids and a head read after it would store them twice.
      const seen = expected === 'any' ? await replayOrHead(stream, events) : { head: await readHead(stream) };
      if ('replay' in seen) return seen.replay;
      const head = seen.head;
      if (expected === 'stream_exists' && !head) throw wrongExpectedVersion(stream, 'stream_exists', 'no_stream');
      try {
        const result = await appendAt(stream, events, head ? head.revision : 'no_stream', head);
        return result.written === false ? await checkReplay(stream, events, result) : result;
      } catch (error) {
        if (!isLedgerError(error, 'wrong_expected_version') || attempt >= retry.attempts) throw error;
        await conflictBackoff(retry, attempt);
      }
    }
  };

  /**
   * The heads this ledger's own raw appends at an exact revision left, per stream (at most
   * RAW_HEADS, the least recently written dropped first). A head is true of its revision forever,
   * and appendAt uses one only for an append conditional on exactly that revision, which the
   * store refuses if the stream moved; so a stale entry costs a refusal, never a wrong link.
   * It saves the read of the head before each append (benchmark row "single-event appends,
   * synchronous=NORMAL": that read was a read transaction per append).
   */
  const rawHeads = new Map<string, ChainHead>();
  /** The stream remembered last: already the newest key, so a writer appending to one stream replaces its head in place. */
  let newest: string | undefined;
  const rememberHead = (stream: string, head: ChainHead): void => {
    if (stream === newest && rawHeads.has(stream)) {
      rawHeads.set(stream, head);
      return;
    }
    rawHeads.delete(stream);
    rawHeads.set(stream, head);
    newest = stream;
    if (rawHeads.size > RAW_HEADS) rawHeads.delete(rawHeads.keys().next().value!);
  };

  const append: Ledger['append'] = async (stream, events, options = {}) => {
    const expected = options.expectedRevision ?? 'any';
    if (expected === 'any' || expected === 'stream_exists') return appendLoose(stream, events, expected);
    const given = options.head && options.head.revision === expected ? options.head : undefined;
    const head = given ?? rawHeads.get(stream);
    let result: LedgerAppendResult;
    if (head && head.revision === expected) {
      // appendAt's work with its head known, inline: one async function and its promise fewer an
      // append (benchmark row "sqlite single-event appends with the log commitment", issue 13).
      const sealed = sealEvents(stream, head, events);
      result = (await store.appendToStream(stream, sealed, { expectedRevision: expected })) as LedgerAppendResult;
      result.head = headAfter(sealed, result);
    } else result = await appendAt(stream, events, expected, head);
    if (result.head) rememberHead(stream, result.head);
    return result.written === false ? checkReplay(stream, events, result) : result;
  };

  const handler = commandHandler({ store, appendAt, retry });

  return {
    store,
    append,
    handle: handler.handle,
    load: handler.load,
    async verify(options = {}) {
      const { names, deletedEvents } = options.stream !== undefined ? { names: [options.stream], deletedEvents: 0 } : await liveStreamNames(store);
      const deleted = deletedEvents > 0 ? { deletedInAll: deletedEvents } : {};
      let count = 0;
      for (const name of names) {
        // A listed stream deleted since the listing has nothing left to check; one named by the caller must exist.
        const events = await readWholeStream(store, name).catch((error: unknown) => {
          if (options.stream === undefined && (isLedgerError(error, 'stream_not_found') || isLedgerError(error, 'stream_deleted'))) return [];
          throw error;
        });
        const broken = verifyStreamChain(events);
        count += events.length;
        options.onProgress?.(count);
        if (broken) return { streams: names.length, events: count, broken, ...deleted };
      }
      return { streams: names.length, events: count, broken: null, ...deleted };
    },
  };
};

const PAGE = 1000;

export const readWholeStream = async (store: EventStore, stream: string): Promise<RecordedEvent[]> => {
  const out: RecordedEvent[] = [];
  let from: bigint | 'start' = 'start';
  for (;;) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: PAGE });
    out.push(...page);
    if (page.length < PAGE) return out;
    from = page[page.length - 1]!.revision + 1n;
  }
};

/** Pages through $all in commit order. */
export async function* readAllPages(store: EventStore, from: bigint | 'start' = 'start', pageSize = PAGE) {
  let cursor: bigint | 'start' = from;
  for (;;) {
    const page = await store.readAll({ fromPosition: cursor, maxCount: pageSize });
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    cursor = page[page.length - 1]!.position + 1n;
  }
}

export const streamNames = async (store: EventStore): Promise<string[]> => {
  const seen = new Set<string>();
  for await (const page of readAllPages(store)) for (const event of page) seen.add(event.streamName);
  return [...seen];
};
