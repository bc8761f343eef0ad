import { canonicalJson, isCanonicalAsIs, sha256Hex, sortedAsIs } from './canonical.js';
import type { RecordedEvent } from './envelope.js';
import type { JsonObject, JsonValue } from './json.js';

/** Metadata keys the ledger owns. Writers never set them. */
export const PREV_HASH = 'prevHash';
export const HASH = 'hash';

export interface ChainInput {
  stream: string;
  revision: bigint;
  id: string;
  type: string;
  data: JsonValue;
  /** Metadata including prevHash, excluding hash. */
  metadata: JsonObject;
}

/** The hash of one event over its canonical encoding; identical on every backend. */
export const chainHash = (input: ChainInput): string => sha256Hex(chainText(input));

/**
 * canonicalJson of { stream, revision, id, type, data, metadata }, with the six keys written in
 * their sorted order directly (this runs once per appended event and once per verified one).
 * When data is already in canonical order at every depth and metadata is, or is once its own keys
 * are sorted (most events), the whole text is one native JSON.stringify: one flat string, which
 * also hashes faster than a concatenation.
 * Anything but the usual shape (string fields, defined data) takes the generic encoder.
 */
export const chainText = (input: ChainInput): string => {
  const { stream, id, type, data, metadata } = input;
  const revision = input.revision.toString();
  if (typeof stream !== 'string' || typeof id !== 'string' || typeof type !== 'string' || data === undefined || metadata === undefined) {
    return canonicalJson({ stream, revision, id, type, data, metadata });
  }
  const dataAsIs = isCanonicalAsIs(data);
  // Data whose own keys are out of order but whose members are canonical as they are (writers' usual
  // `{ role, n, text }`) is copied with its keys sorted, like metadata, instead of taking the generic
  // encoder: the same text from one native call (about 2 us less for a single append's event).
  const sortedData = dataAsIs ? data : sortedAsIs(data);
  if (sortedData !== undefined) {
    // Metadata is rarely in order (the ledger's prevHash comes first): a sorted shallow copy of it still
    // lets the whole text be one native call.
    const sorted = isCanonicalAsIs(metadata) ? metadata : sortedAsIs(metadata);
    if (sorted !== undefined) return JSON.stringify({ data: sortedData, id, metadata: sorted, revision, stream, type });
  }
  return (
    `{"data":${dataAsIs ? JSON.stringify(data) : canonicalJson(data)},"id":${JSON.stringify(id)},"metadata":${canonicalJson(metadata)},` +
    `"revision":${JSON.stringify(revision)},"stream":${JSON.stringify(stream)},"type":${JSON.stringify(type)}}`
  );
};

export const hashOf = (event: RecordedEvent): string | null => {
  const value = event.metadata[HASH];
  return typeof value === 'string' ? value : null;
};

export interface BrokenLink {
  stream: string;
  revision: bigint;
  /** What the link should be: the recomputed hash, or the predecessor's hash; `no hash: WHY` when the content cannot be hashed. */
  expected: string;
  found: string;
  reason: 'hash' | 'prev';
}

/**
 * Checks the events of one stream, in revision order. The first readable event is the anchor:
 * at revision 0 its predecessor must be null; after a soft delete its predecessor is gone.
 */
export const verifyStreamChain = (events: RecordedEvent[]): BrokenLink | null => {
  let previous: string | null | undefined;
  for (const event of events) {
    const { [HASH]: stored, ...rest } = event.metadata;
    let recomputed: string;
    try {
      recomputed = chainHash({ stream: event.streamName, revision: event.revision, id: event.id, type: event.type, data: event.data, metadata: rest });
    } catch (error) {
      // Stored data that reads back as a value no event holds (a stored 1e400 is Infinity): this link is broken, and says why.
      return { stream: event.streamName, revision: event.revision, expected: `no hash: ${(error as Error).message}`, found: String(stored), reason: 'hash' };
    }
    const prev = rest[PREV_HASH] ?? null;
    const expectedPrev = previous === undefined ? (event.revision === 0n ? null : prev) : previous;
    if (prev !== expectedPrev) {
      return {
        stream: event.streamName,
        revision: event.revision,
        expected: String(expectedPrev),
        found: String(prev),
        reason: 'prev',
      };
    }
    if (stored !== recomputed) {
      return { stream: event.streamName, revision: event.revision, expected: recomputed, found: String(stored), reason: 'hash' };
    }
    previous = recomputed;
  }
  return null;
};
