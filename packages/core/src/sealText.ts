import { isCanonicalAsIs, sha256Hex, sortedAsIs } from './canonical.js';
import { chainText, type ChainInput } from './chain.js';
import type { EventData } from './envelope.js';

/**
 * The JSON text of each sealed event's data, as the ledger wrote it into the chain text, keyed by
 * the sealed event object (a WeakMap: a copy of the event, or any event the ledger did not seal,
 * has none, and its store serialises the data itself).
 */
const dataTexts = new WeakMap<EventData, string>();

/**
 * The text `JSON.stringify(event.data)` gives, when the ledger already wrote it for this very
 * event object while sealing it; undefined otherwise. A store writing the data as JSON text
 * (SQLite) uses it instead of serialising the data a second time. The ledger seals and hands the
 * events to the store in one synchronous step, so the data cannot change in between.
 */
export const sealedDataText = (event: EventData): string | undefined => dataTexts.get(event);

/** Records the data text of a sealed event (the ledger only). */
export const rememberDataText = (event: EventData, text: string): void => {
  dataTexts.set(event, text);
};

/**
 * An appended event's chain hash, and its data's JSON text when that text is part of the chain
 * text as is (data in canonical order at every depth: most events). The chain text is then
 * written around the data's text (chainText's bytes, one data serialisation for both the hash and
 * the store row); a concatenated text hashes a little slower than one flat string, but less than
 * a second serialisation of the data costs (2026-12-01, the Hermes bench's events: 4.4 against
 * 6.1 µs an event). Anything else hashes chainText and has no data text.
 */
export const sealedChainHash = (input: ChainInput): { hash: string; dataText: string | undefined } => {
  const { stream, id, type, data, metadata } = input;
  if (typeof stream === 'string' && typeof id === 'string' && typeof type === 'string' && data !== undefined && isCanonicalAsIs(data)) {
    const sorted = isCanonicalAsIs(metadata) ? metadata : sortedAsIs(metadata);
    if (sorted !== undefined) {
      const dataText = JSON.stringify(data);
      const text =
        `{"data":${dataText},"id":${JSON.stringify(id)},"metadata":${JSON.stringify(sorted)},` +
        `"revision":"${input.revision}","stream":${JSON.stringify(stream)},"type":${JSON.stringify(type)}}`;
      return { hash: sha256Hex(text), dataText };
    }
  }
  return { hash: sha256Hex(chainText(input)), dataText: undefined };
};
