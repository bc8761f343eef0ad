import { describe, expect, it } from 'vitest';
import type { EventData } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { expectLedgerError, idsOf, makeEvents, readOrError, uniqueStream } from '../helpers.js';

/**
 * Every backend keeps UTF-8 (SQLite text, EventStoreDB's JSON bytes), where a lone surrogate cannot
 * be kept as is: an append holding one anywhere is refused whole, before anything is written.
 */
export const wellFormedSection = ({ store }: ConformanceContext): void => {
  describe('appendToStream: well-formed strings only', () => {
    const poisoned: Array<[string, (event: EventData) => EventData]> = [
      ['the type', (event) => ({ ...event, type: 'placed\ud800' })],
      ['a data value', (event) => ({ ...event, data: { text: ['ok', 'x\udc00'] } })],
      ['a data key', (event) => ({ ...event, data: { ['k\ud800']: 1 } })],
      ['a metadata value', (event) => ({ ...event, metadata: { note: '\udbff' } })],
    ];
    for (const [where, poison] of poisoned) {
      it(`refuses a lone surrogate in ${where} with invalid_input, writing none of the batch`, async () => {
        const stream = uniqueStream();
        const [first, second] = makeEvents(2);
        await expectLedgerError(store().appendToStream(stream, [first!, poison(second!)]), 'invalid_input');
        expect(await readOrError(store(), stream)).toBe('stream_not_found');
        const kept = makeEvents(1);
        await store().appendToStream(stream, kept, { expectedRevision: 'no_stream' });
        expect(idsOf(await store().readStream(stream))).toEqual(idsOf(kept));
      });
    }

    it('stores a well-formed pair (outside the BMP) as given', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [{ ...makeEvents(1)[0]!, data: { text: 'clef \ud834\udd1e' } }]);
      expect((await store().readStream(stream))[0]!.data).toEqual({ text: 'clef \ud834\udd1e' });
    });
  });
};
