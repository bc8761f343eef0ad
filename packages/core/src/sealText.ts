import { isCanonicalAsIs, sha256Hex, sortedAsIs } from './canonical.js';
import { chainText, type ChainInput } from './chain.js';
import type { EventData } from './envelope.js';

/** The data texts of one sealed batch, beside the event objects they belong to. */
interface SealedBatch {
  events: EventData[];
  texts: Array<string | undefined>;
}

/**
 * The JSON text of each sealed event's data, as the ledger wrote it into the chain text, keyed by
 * the array of sealed events the ledger hands the store (a WeakMap with one entry a batch: one an
 * event cost about 0.45 µs an event). A copy of the array, or an array whose events are not the
 * very objects the ledger sealed, has none, and its store serialises the data itself.
 */
const batches = new WeakMap<readonly EventData[], SealedBatch>();

/**
 * The texts `JSON.stringify(events[i].data)` gives, where the ledger already wrote them while
 * sealing these very event objects (undefined where it did not); undefined for any other array. A
 * store writing the data as JSON text (SQLite) uses them instead of serialising the data a second
 * time. The ledger seals and hands the events to the store in one synchronous step, so the data
 * cannot change in between.
 */
export const sealedDataTexts = (events: readonly EventData[]): ReadonlyArray<string | undefined> | undefined => {
  const batch = batches.get(events);
  if (!batch || batch.events.length !== events.length) return undefined;
  for (let index = 0; index < events.length; index += 1) if (batch.events[index] !== events[index]) return undefined;
  return batch.texts;
};

/** Records the data texts of a sealed batch (the ledger only). */
export const rememberDataTexts = (events: EventData[], texts: Array<string | undefined>): void => {
  // No text to hand on (data not in canonical order): the store serialises the data either way.
  if (!texts.some((text) => text !== undefined)) return;
  batches.set(events, { events: events.slice(), texts });
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
