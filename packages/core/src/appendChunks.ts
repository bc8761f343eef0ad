import type { EventData } from './envelope.js';

/**
 * The most bytes of event text one append of a copy or an import carries. EventStoreDB refuses an
 * append over its MaxAppendSize (1 MiB by default: `maximum-append-size-exceeded`, the port's
 * `invalid_input`), counting each event's data, metadata, type and record overhead; half of it leaves
 * room for that overhead and the adapter's own metadata (outside review, session 27: a migrate or a
 * Hermes import into a default server failed on any 1,000-event batch of ordinary messages).
 */
export const APPEND_BYTES = 512 * 1024;

/** An event's text as an append carries it (UTF-8 bytes of its type, data and metadata). */
export const eventBytes = (event: Pick<EventData, 'type' | 'data' | 'metadata'>): number =>
  Buffer.byteLength(event.type) + Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata ?? {}));

/**
 * Splits items into consecutive appends of at most `maxCount` items and `maxBytes` bytes each (an
 * item larger than `maxBytes` goes alone: the store decides whether it fits). The order is kept.
 */
export const appendChunks = <T>(items: readonly T[], bytesOf: (item: T) => number, maxCount: number, maxBytes = APPEND_BYTES): T[][] => {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
};
