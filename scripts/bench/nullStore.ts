import type { AppendResult, EventData, EventStore, ExpectedRevision, RecordedEvent } from '@session-ledger/core';

const unsupported = (what: string) => () => {
  throw new Error(`the null store does not ${what}`);
};

/**
 * A store that keeps nothing but each stream's head: an append checks its expected revision and
 * answers at once. Only for the ceiling of the write path's JavaScript (writePathCeiling.ts): the
 * ledger's chain hash, the sessions decider and the command handler, with no SQL and no leaf hash.
 * `unchangedSince` answers true for the head it holds, as the SQLite store does for its own commits,
 * so the handler decides on its cached state instead of reading (reads answer no events).
 */
export const nullStore = (): EventStore => {
  const heads = new Map<string, bigint>();
  let position = -1n;
  const matches = (expected: ExpectedRevision | undefined, head: bigint | undefined): boolean => {
    if (expected === undefined || expected === 'any') return true;
    if (expected === 'no_stream') return head === undefined;
    if (expected === 'stream_exists') return head !== undefined;
    return head === expected;
  };
  return {
    name: 'null:',
    async appendToStream(stream: string, events: EventData[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
      const head = heads.get(stream);
      if (!matches(options?.expectedRevision, head)) throw new Error(`null store: ${stream} is at ${String(head)}`);
      const next = (head ?? -1n) + BigInt(events.length);
      heads.set(stream, next);
      position += BigInt(events.length);
      return { nextExpectedRevision: next, position, written: true };
    },
    readStream: async (): Promise<RecordedEvent[]> => [],
    readAll: async (): Promise<RecordedEvent[]> => [],
    unchangedSince: (stream, revision) => heads.get(stream) === revision,
    deleteStream: unsupported('delete'),
    tombstoneStream: unsupported('tombstone'),
    subscribeToStream: unsupported('subscribe'),
    subscribeToAll: unsupported('subscribe'),
    readCheckpoint: async () => null,
    storeCheckpoint: async () => undefined,
    close: async () => undefined,
  };
};
