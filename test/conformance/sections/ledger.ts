import { describe, expect, it } from 'vitest';
import { createLedger, newId, type NewEvent } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { outcomeOf, uniqueStream } from '../helpers.js';

const newEvents = (count: number, writer: string): NewEvent[] =>
  Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'chained', data: { writer, n } }));

export const ledgerSection = ({ store }: ConformanceContext): void => {
  describe('hash chain through createLedger', () => {
    it('links every event to its predecessor and verifies', async () => {
      const ledger = createLedger(store());
      const stream = uniqueStream('chain');
      await ledger.append(stream, newEvents(3, 'w'), { expectedRevision: 'no_stream' });
      await ledger.append(stream, newEvents(2, 'w'), { expectedRevision: 2n });
      await ledger.append(stream, newEvents(1, 'w'));
      const events = await store().readStream(stream);
      expect(events[0]!.metadata.prevHash).toBeNull();
      for (let i = 1; i < events.length; i += 1) expect(events[i]!.metadata.prevHash).toBe(events[i - 1]!.metadata.hash);
      const report = await ledger.verify({ stream });
      expect(report).toMatchObject({ streams: 1, events: 6, broken: null });
    });

    it('a fresh ledger on the same store continues the chain', async () => {
      const stream = uniqueStream('chain');
      await createLedger(store()).append(stream, newEvents(2, 'first'));
      await createLedger(store()).append(stream, newEvents(2, 'second'));
      expect((await createLedger(store()).verify({ stream })).broken).toBeNull();
    });

    it('two ledgers racing with any never fork the chain', async () => {
      const stream = uniqueStream('chain');
      const [one, two] = [createLedger(store()), createLedger(store())];
      await Promise.all(
        [one, two].map(async (ledger, writer) => {
          for (let i = 0; i < 10; i += 1) await ledger.append(stream, newEvents(1, `writer-${writer}`), { expectedRevision: 'any' });
        }),
      );
      const events = await store().readStream(stream);
      expect(events).toHaveLength(20);
      expect((await one.verify({ stream })).broken).toBeNull();
    });

    it('two ledgers racing at the same exact revision: one wins and the chain holds', async () => {
      const stream = uniqueStream('chain');
      const [one, two] = [createLedger(store()), createLedger(store())];
      await one.append(stream, newEvents(1, 'head'), { expectedRevision: 'no_stream' });
      const outcomes = await Promise.all(
        [one, two].map((ledger, writer) => outcomeOf(ledger.append(stream, newEvents(2, `writer-${writer}`), { expectedRevision: 0n }))),
      );
      expect([...outcomes].sort()).toEqual(['ok', 'wrong_expected_version']);
      await two.append(stream, newEvents(1, 'after'));
      expect(await store().readStream(stream)).toHaveLength(4);
      expect((await two.verify({ stream })).broken).toBeNull();
    });

    it('a retried ledger append writes nothing and keeps the chain', async () => {
      const stream = uniqueStream('chain');
      const ledger = createLedger(store());
      const batch = newEvents(2, 'w');
      await ledger.append(stream, batch);
      await ledger.append(stream, batch);
      await createLedger(store()).append(stream, batch, { expectedRevision: 'no_stream' });
      expect(await store().readStream(stream)).toHaveLength(2);
      expect((await ledger.verify({ stream })).broken).toBeNull();
    });
  });
};
