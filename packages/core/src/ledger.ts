import { chainHash, hashOf, HASH, PREV_HASH, verifyStreamChain, type BrokenLink } from './chain.js';
import type { AppendResult, EventData, ExpectedRevision, RecordedEvent } from './envelope.js';
import { invalidInput, isLedgerError, wrongExpectedVersion } from './errors.js';
import type { JsonObject, JsonValue } from './json.js';
import type { EventStore } from './port.js';

/** An event as a writer hands it to the ledger; the ledger adds the chain metadata. */
export interface NewEvent {
  id: string;
  type: string;
  data: JsonValue;
  metadata?: JsonObject;
}

interface Head {
  revision: bigint;
  hash: string | null;
}

export interface Ledger {
  readonly store: EventStore;
  /** Appends with the hash chain. Same semantics as the store's append. */
  append(stream: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult>;
  /** Recomputes the chain of one stream, or of every stream when none is named. */
  verify(options?: { stream?: string; onProgress?: (done: number) => void }): Promise<VerifyReport>;
}

export interface VerifyReport {
  streams: number;
  events: number;
  broken: BrokenLink | null;
}

const MAX_RETRIES = 20;

const sealEvents = (stream: string, base: Head | null, events: NewEvent[]): EventData[] => {
  let prev = base?.hash ?? null;
  let revision = (base?.revision ?? -1n) + 1n;
  return events.map((event) => {
    const given = event.metadata;
    if (given && (HASH in given || PREV_HASH in given)) throw invalidInput(`Metadata keys ${PREV_HASH} and ${HASH} belong to the ledger`);
    // prevHash first: before the writers' usual keys (schemaVersion) that is canonical order already.
    const metadata: JsonObject = { [PREV_HASH]: prev, ...given };
    const hash = chainHash({ stream, revision, id: event.id, type: event.type, data: event.data, metadata });
    // The hash covers the metadata without it, so it is added to the same object afterwards (one copy per event).
    metadata[HASH] = hash;
    prev = hash;
    revision += 1n;
    return { id: event.id, type: event.type, data: event.data, metadata };
  });
};

/**
 * The ledger layer: it computes every event's chain link before the store sees it, so the chain
 * is the same on every backend. The base of the chain is always the exact revision the store
 * checks, so two racing writers can never fork a chain: one of them gets WrongExpectedVersion.
 */
export const createLedger = (store: EventStore): Ledger => {
  const heads = new Map<string, Head>();

  const readHead = async (stream: string, at?: bigint): Promise<Head | null> => {
    try {
      const events =
        at === undefined
          ? await store.readStream(stream, { direction: 'backwards', maxCount: 1 })
          : await store.readStream(stream, { fromRevision: at, maxCount: 1 });
      const last = events[0];
      if (!last || (at !== undefined && last.revision !== at)) return null;
      return { revision: last.revision, hash: hashOf(last) };
    } catch (error) {
      if (isLedgerError(error, 'stream_not_found')) return null;
      throw error;
    }
  };

  /** A retry of the latest append (same ids at the tail) writes nothing and reports the tail. */
  const alreadyAppended = async (stream: string, events: NewEvent[]): Promise<AppendResult | null> => {
    if (events.length === 0) return null;
    try {
      const tail = await store.readStream(stream, { direction: 'backwards', maxCount: events.length });
      const ids = tail.map((event) => event.id).reverse();
      const same = ids.length === events.length && ids.every((id, index) => id === events[index]!.id);
      return same ? { nextExpectedRevision: tail[0]!.revision, position: tail[0]!.position } : null;
    } catch (error) {
      if (isLedgerError(error, 'stream_not_found')) return null;
      throw error;
    }
  };

  /**
   * After a soft delete the store continues the numbering, so the chain must start at the revision
   * after the deleted tail (with no predecessor: the deleted events are gone). Stores that cannot
   * tell the state start at 0, as for a new stream.
   */
  const softDeletedTail = async (stream: string): Promise<Head | null> => {
    const state = await store.streamState?.(stream);
    return state && !state.tombstoned && state.lastRevision >= 0n ? { revision: state.lastRevision, hash: null } : null;
  };

  const appendAt = async (stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> => {
    const cached = heads.get(stream);
    let base: Head | null;
    if (expected === 'no_stream') base = null;
    else if (typeof expected === 'bigint') {
      base = cached && cached.revision === expected ? cached : await readHead(stream, expected);
    } else base = cached ?? (await readHead(stream));
    const storeExpected: ExpectedRevision =
      typeof expected === 'bigint' || expected === 'no_stream' ? expected : base ? base.revision : 'no_stream';
    if (expected === 'stream_exists' && !base) throw wrongExpectedVersion(stream, 'stream_exists', 'no_stream');
    const sealed = sealEvents(stream, base ?? (await softDeletedTail(stream)), events);
    try {
      const result = await store.appendToStream(stream, sealed, { expectedRevision: storeExpected });
      const last = sealed[sealed.length - 1];
      if (last && result.written === true) {
        heads.set(stream, { revision: result.nextExpectedRevision, hash: last.metadata![HASH] as string });
      } else heads.delete(stream);
      return result;
    } catch (error) {
      heads.delete(stream);
      throw error;
    }
  };

  /** 'any' and 'stream_exists': the head is the store's, read again when another writer moved it. */
  const appendLoose = async (stream: string, events: NewEvent[], expected: 'any' | 'stream_exists'): Promise<AppendResult> => {
    const replay = expected === 'any' ? await alreadyAppended(stream, events) : null;
    if (replay) return replay;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await appendAt(stream, events, expected);
      } catch (error) {
        if (!isLedgerError(error, 'wrong_expected_version') || attempt >= MAX_RETRIES) throw error;
        if (expected === 'stream_exists' && error.details.actual === 'no_stream') throw error;
      }
    }
  };

  return {
    store,
    // Not async: an exact revision (the writer API's usual case) goes straight to appendAt, no extra promise.
    append(stream, events, options = {}) {
      const expected = options.expectedRevision ?? 'any';
      return typeof expected === 'bigint' || expected === 'no_stream' ? appendAt(stream, events, expected) : appendLoose(stream, events, expected);
    },
    async verify(options = {}) {
      const names = options.stream ? [options.stream] : await streamNames(store);
      let count = 0;
      for (const name of names) {
        const events = await readWholeStream(store, name);
        const broken = verifyStreamChain(events);
        count += events.length;
        options.onProgress?.(count);
        if (broken) return { streams: names.length, events: count, broken };
      }
      return { streams: names.length, events: count, broken: null };
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
