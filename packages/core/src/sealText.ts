import { isCanonicalAsIs, sha256Hex, sortedAsIs } from './canonical.js';
import { chainText, type ChainInput } from './chain.js';
import type { EventData } from './envelope.js';

/** The row texts of one sealed batch a store may use instead of serialising again (undefined where none). */
export interface SealedTexts {
  /** JSON.stringify of each sealed event's data, where the ledger wrote it. */
  readonly texts: ReadonlyArray<string | undefined>;
  /** JSON.stringify of each sealed event's metadata, where the ledger wrote it (usualSeal.ts). */
  readonly metadataTexts: ReadonlyArray<string | undefined> | undefined;
}

/** A sealed batch's texts, beside the event objects they belong to. */
interface SealedBatch extends SealedTexts {
  /** The array handed to the store, and a copy of its events as they were sealed. */
  array: readonly EventData[];
  events: EventData[];
}

/**
 * The JSON text of each sealed event's data, keyed by the array of sealed events handed to a store:
 * the batches rememberDataTexts records (one entry a batch: one an event cost about 0.45 µs an
 * event); the ledger's own hand the one slot below. A copy of the array, or an array whose events
 * are not the very objects that were sealed, has none, and its store serialises the data itself.
 */
const batches = new WeakMap<readonly EventData[], SealedBatch>();

/**
 * The texts `JSON.stringify(events[i].data)` gives, where the ledger already wrote them while
 * sealing these very event objects (undefined where it did not); undefined for any other array. A
 * store writing the data as JSON text (SQLite) uses them instead of serialising the data a second
 * time. The ledger seals and hands the events to the store in one synchronous step, so the data
 * cannot change in between.
 */
export const sealedDataTexts = (events: readonly EventData[]): ReadonlyArray<string | undefined> | undefined => sealedTexts(events)?.texts;

/**
 * sealedDataTexts, and the texts `JSON.stringify(events[i].metadata)` gives where the ledger wrote
 * them (the usual event's `{"prevHash":…,"hash":…}`: usualSeal.ts), under the same conditions.
 */
export const sealedTexts = (events: readonly EventData[]): SealedTexts | undefined => {
  let batch: SealedBatch | undefined;
  if (handed !== undefined && handed.array === events) {
    batch = handed;
    handed = undefined;
  } else batch = batches.get(events);
  if (!batch || batch.events.length !== events.length) return undefined;
  for (let index = 0; index < events.length; index += 1) if (batch.events[index] !== events[index]) return undefined;
  return batch;
};

/** Records the data texts of a batch sealed elsewhere (a worker's: import-hermes's split import) until it is appended. */
export const rememberDataTexts = (events: EventData[], texts: Array<string | undefined>): void => {
  // No text to hand on (data not in canonical order): the store serialises the data either way.
  if (!texts.some((text) => text !== undefined)) return;
  batches.set(events, { array: events, events: events.slice(), texts, metadataTexts: undefined });
};

/**
 * The batch the ledger is handing to its store (handOverTexts), until a store takes it (sealedTexts)
 * or the next batch replaces it. One slot, not a WeakMap entry: the ledger calls the store in the
 * same synchronous step that sealed the batch, and the store (and a wrapper such as `traced`) looks
 * the texts up before its first await; a WeakMap entry cost a single append about 0.8 us, most of it
 * the garbage collector's (benchmark row "sqlite single-event appends with the log commitment",
 * issue 13). A store that looks later, or at another array, serialises the events itself.
 */
let handed: SealedBatch | undefined;

/** Hands the texts of the batch the ledger is about to pass to its store (the ledger only). */
export const handOverTexts = (events: EventData[], texts: Array<string | undefined>, metadataTexts: Array<string | undefined>): void => {
  handed = { array: events, events: events.slice(), texts, metadataTexts };
};

/**
 * An appended event's chain hash, and its data's JSON text when that text is part of the chain
 * text as is (data in canonical order at every depth: most events). The chain text is then one
 * native JSON.stringify of the whole event (chainText's bytes, one flat string, which hashes faster
 * than a concatenation), and the data's text is cut out of it: data is its first member, so the
 * text is `{"data":` + DATA + `,` + the rest's own text without its `{`. The rest (id, metadata,
 * revision, stream, type) is small; serialising it again costs less than serialising the data a
 * second time for the store row (the Hermes bench's events), and a single append pays only that.
 * Anything else hashes chainText and has no data text.
 */
export const sealedChainHash = (input: ChainInput): { hash: string; dataText: string | undefined } => {
  const { stream, id, type, data, metadata } = input;
  if (typeof stream === 'string' && typeof id === 'string' && typeof type === 'string' && data !== undefined && isCanonicalAsIs(data)) {
    const sorted = isCanonicalAsIs(metadata) ? metadata : sortedAsIs(metadata);
    if (sorted !== undefined) {
      const revision = input.revision.toString();
      const text = JSON.stringify({ data, id, metadata: sorted, revision, stream, type });
      const rest = JSON.stringify({ id, metadata: sorted, revision, stream, type });
      return { hash: sha256Hex(text), dataText: text.slice(8, text.length - rest.length) };
    }
  }
  return { hash: sha256Hex(chainText(input)), dataText: undefined };
};
