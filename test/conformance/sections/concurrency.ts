import { describe, expect, it } from 'vitest';
import type { ExpectedRevision } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { idsOf, makeEvents, outcomeOf, uniqueStream } from '../helpers.js';

const ROUNDS = 10;

export const concurrencySection = ({ store }: ConformanceContext): void => {
  /** Two writers append different events at the same expected revision, at the same time. */
  const race = async (stream: string, expectedRevision: ExpectedRevision) => {
    const [a, b] = [makeEvents(2, 'writer-a'), makeEvents(2, 'writer-b')];
    const outcomes = await Promise.all([
      outcomeOf(store().appendToStream(stream, a, { expectedRevision })),
      outcomeOf(store().appendToStream(stream, b, { expectedRevision })),
    ]);
    return { a, b, outcomes };
  };

  describe('concurrency', () => {
    it('two writers racing at the same exact revision: exactly one wins, the other gets WrongExpectedVersion', async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const stream = uniqueStream('race');
        const head = makeEvents(1);
        await store().appendToStream(stream, head, { expectedRevision: 'no_stream' });
        const { a, b, outcomes } = await race(stream, 0n);
        expect([...outcomes].sort()).toEqual(['ok', 'wrong_expected_version']);
        const winner = outcomes[0] === 'ok' ? a : b;
        const ids = idsOf(await store().readStream(stream));
        expect(ids).toEqual([...idsOf(head), ...idsOf(winner)]);
      }
    });

    it('two writers racing to create a stream with no_stream: exactly one wins', async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const stream = uniqueStream('race');
        const { a, b, outcomes } = await race(stream, 'no_stream');
        expect([...outcomes].sort()).toEqual(['ok', 'wrong_expected_version']);
        const winner = outcomes[0] === 'ok' ? a : b;
        expect(idsOf(await store().readStream(stream))).toEqual(idsOf(winner));
      }
    });

    it('concurrent appends with any all land, each once, with contiguous revisions', async () => {
      const stream = uniqueStream('race');
      const batches = Array.from({ length: 8 }, (_, index) => makeEvents(2, `writer-${index}`));
      await Promise.all(batches.map((batch) => store().appendToStream(stream, batch, { expectedRevision: 'any' })));
      const events = await store().readStream(stream);
      expect(events.map((event) => event.revision)).toEqual(Array.from({ length: 16 }, (_, index) => BigInt(index)));
      expect(new Set(idsOf(events))).toEqual(new Set(batches.flatMap(idsOf)));
      for (const batch of batches) {
        const at = idsOf(events).indexOf(batch[0]!.id);
        expect(events[at + 1]!.id).toBe(batch[1]!.id);
      }
    });
  });
};
