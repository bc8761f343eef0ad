import type { RecordedEvent } from '@session-ledger/core';

const LIMIT = 10_000;

/**
 * The last revision this adapter knows for recently used streams, so an append can tell a new
 * write from a retry without reading the stream first. Learnt from its own new writes and from
 * reads that reached a stream's end; forgotten on every delete, every failed append, a retry
 * (which does not say where the stream ends) and a stream reported missing. Another writer can
 * only make it stale towards the past, which an append with an exact expected revision refuses.
 */
export const lastRevisions = () => {
  const known = new Map<string, bigint>();
  return {
    get: (stream: string) => known.get(stream),
    set: (stream: string, revision: bigint) => {
      known.delete(stream);
      known.set(stream, revision);
      if (known.size > LIMIT) known.delete(known.keys().next().value as string);
    },
    forget: (stream: string) => void known.delete(stream),
    /** After a read: events ending the stream say where it ends. */
    learn(stream: string, events: RecordedEvent[], reachedEnd: boolean) {
      const last = events.reduce<bigint | undefined>((max, event) => (max === undefined || event.revision > max ? event.revision : max), undefined);
      if (reachedEnd && last !== undefined) this.set(stream, last);
    },
  };
};
export type LastRevisions = ReturnType<typeof lastRevisions>;
