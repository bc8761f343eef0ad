import type { AppendResult, EventStore } from '@session-ledger/core';
import type { AppendThread } from './appendThread.js';
import type { WroteCounts } from './protocol.js';

/**
 * The store this thread's ledger appends to in a split import: reads go to the caller's store; an
 * append (the ledger's sealed batch, at an exact expected revision) goes to the append worker, and is
 * answered at once with the revision it will leave if the worker's store takes it (the worker reports
 * what it did take: the report counts only that). `counts` is what the report adds once it is written.
 */
export const forwardingStore = (store: EventStore, thread: AppendThread, counts: () => WroteCounts): EventStore => ({
  ...store,
  async appendToStream(_stream, events, options = {}) {
    const expected = options.expectedRevision;
    if (expected !== 'no_stream' && typeof expected !== 'bigint') throw new Error(`a split import appends at an exact revision, not ${String(expected)}`);
    await thread.batch(events, expected, counts());
    const result: AppendResult = { nextExpectedRevision: (expected === 'no_stream' ? -1n : expected) + BigInt(events.length), position: -1n, written: true };
    return result;
  },
});
