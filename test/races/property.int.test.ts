import fc from 'fast-check';
import { createLedger, createMemoryStore, isLedgerError, type EventStore } from '@session-ledger/core';
import { appendMessage, loadConversation, startSession } from '@session-ledger/sessions';
import { describe, expect, it } from 'vitest';

interface Op {
  writer: number;
  /** A caller-given message id, or none (the writer gives each message a new one). */
  id: string | null;
  content: string;
}

const opArb: fc.Arbitrary<Op> = fc.record({
  writer: fc.nat(2),
  id: fc.option(fc.constantFrom('m1', 'm2', 'm3'), { nil: null }),
  content: fc.constantFrom('x', 'y'),
});

/** Every store call of every writer resolves when the scheduler says: any interleaving of the writers. */
const scheduled = (s: fc.Scheduler, store: EventStore): EventStore => ({
  ...store,
  appendToStream: s.scheduleFunction(store.appendToStream.bind(store)),
  readStream: s.scheduleFunction(store.readStream.bind(store)),
});

describe('any interleaving of writers: acknowledged == stored (fast-check, fixed seed)', () => {
  it('3 writers, each with its own ledger, appending with and without ids: each acknowledged message is stored once with the content it was acknowledged for, and nothing else is stored', async () => {
    let interleavings = 0;
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(opArb, { minLength: 1, maxLength: 10 }), async (s, ops) => {
        const store = createMemoryStore();
        await startSession({ ledger: createLedger(store) }, { id: 's' });
        const writers = [0, 1, 2].map(() => ({ ledger: createLedger(scheduled(s, store)) }));
        const calls = ops.map((op) =>
          appendMessage(writers[op.writer]!, 's', { ...(op.id === null ? {} : { id: op.id }), role: 'user', content: op.content }).then(
            (result) => ({ op, result, error: null }),
            (error: unknown) => ({ op, result: null, error }),
          ),
        );
        const outcomes = await s.waitFor(Promise.all(calls));
        interleavings += 1;

        const stored = (await loadConversation(store, 's')).messages;
        const storedContent = new Map(stored.map((message) => [message.id, message.content]));
        expect(storedContent.size).toBe(stored.length); // no id stored twice
        const acknowledged = new Set<string>();
        for (const { op, result, error } of outcomes) {
          if (result) {
            acknowledged.add(result.messageId);
            expect(storedContent.get(result.messageId)).toBe(op.content);
          } else {
            // Only a reused id with other content may be refused (the writers give no expected revision).
            expect(isLedgerError(error, 'duplicate')).toBe(true);
            expect(storedContent.get(op.id!)).not.toBe(op.content);
          }
        }
        expect([...storedContent.keys()].sort()).toEqual([...acknowledged].sort());
      }),
      { seed: 20261201, numRuns: 150 },
    );
    expect(interleavings).toBe(150);
  });
});
