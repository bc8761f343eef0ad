import { describe, expect, it } from 'vitest';
import type { ExpectedRevision } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { eventsIn, expectLedgerError, idsOf, iteratorOf, makeEvents, pullUntil, readAllOf, readOrError, uniquePrefix, uniqueStream } from '../helpers.js';

export const deleteSection = ({ store, capabilities, scavenge }: ConformanceContext): void => {
  const keptUntilScavenge = capabilities.deletedEventsInAll === 'until-scavenge';
  /** What `$all` shows right after a delete: the deleted events too on a backend that keeps them until a scavenge. */
  const inAllAfterDelete = (deleted: Array<{ id: string }>, rest: Array<{ id: string }>) =>
    keptUntilScavenge ? [...idsOf(deleted), ...idsOf(rest)] : idsOf(rest);

  const threeEvents = async (stream = uniqueStream()) => {
    const batch = makeEvents(3);
    await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' });
    return { stream, batch };
  };

  describe('deleteStream (soft delete)', () => {
    it('makes reads say not found', async () => {
      const { stream } = await threeEvents();
      await store().deleteStream(stream, { expectedRevision: 2n });
      await expectLedgerError(store().readStream(stream), 'stream_not_found', { stream });
      await expectLedgerError(store().readStream(stream, { direction: 'backwards' }), 'stream_not_found', { stream });
    });

    it('lets a later append continue the revision numbering', async () => {
      const { stream } = await threeEvents();
      await store().deleteStream(stream);
      const next = makeEvents(2);
      const result = await store().appendToStream(stream, next, { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(4n);
      const events = await store().readStream(stream);
      expect(events.map((event) => event.revision)).toEqual([3n, 4n]);
      expect(idsOf(events)).toEqual(idsOf(next));
    });

    it('lets a later append with any continue the revision numbering', async () => {
      const { stream } = await threeEvents();
      await store().deleteStream(stream, { expectedRevision: 'stream_exists' });
      const result = await store().appendToStream(stream, makeEvents(1), { expectedRevision: 'any' });
      expect(result.nextExpectedRevision).toBe(3n);
    });

    // EventStoreDB: a soft-deleted stream reads as not found and has no current revision; it is
    // recreated by appending with no_stream (or any), and the numbering continues after the deleted tail.
    it('refuses an append expecting the deleted last revision (actual no_stream), writes nothing, and no_stream continues the numbering', async () => {
      const { stream } = await threeEvents();
      await store().deleteStream(stream, { expectedRevision: 2n });
      for (const expectedRevision of [2n, 1n, 3n, 'stream_exists'] as ExpectedRevision[]) {
        await expectLedgerError(store().appendToStream(stream, makeEvents(1), { expectedRevision }), 'wrong_expected_version', {
          stream,
          actual: 'no_stream',
        });
      }
      expect(await readOrError(store(), stream)).toBe('stream_not_found');
      const next = makeEvents(1);
      expect((await store().appendToStream(stream, next, { expectedRevision: 'no_stream' })).nextExpectedRevision).toBe(3n);
      await expectLedgerError(store().appendToStream(stream, makeEvents(1), { expectedRevision: 2n }), 'wrong_expected_version', {
        stream,
        actual: '3',
      });
      const last = makeEvents(1);
      expect((await store().appendToStream(stream, last, { expectedRevision: 3n })).nextExpectedRevision).toBe(4n);
      expect(idsOf(await store().readStream(stream))).toEqual(idsOf([...next, ...last]));
    });

    it(
      keptUntilScavenge
        ? 'keeps the deleted events in readAll until a scavenge, which removes them and only them'
        : 'removes the deleted events from readAll at once, and only those',
      async () => {
        const prefix = uniquePrefix();
        const { stream, batch } = await threeEvents(`${prefix}gone`);
        const kept = makeEvents(1);
        await store().appendToStream(`${prefix}kept`, kept);
        const first = (await store().readStream(stream, { maxCount: 1 }))[0]!.position;
        await store().deleteStream(stream);
        const after = makeEvents(1);
        await store().appendToStream(stream, after);
        expect(idsOf(await readAllOf(store(), prefix, first))).toEqual(inAllAfterDelete(batch, [...kept, ...after]));
        if (!capabilities.scavenge) return;
        await scavenge();
        expect(idsOf(await readAllOf(store(), prefix, first))).toEqual(idsOf([...kept, ...after]));
        expect(idsOf(await store().readStream(stream))).toEqual(idsOf(after));
        expect((await store().appendToStream(stream, makeEvents(1), { expectedRevision: 3n })).nextExpectedRevision).toBe(4n);
      },
    );

    it(`${keptUntilScavenge ? 'delivers' : 'does not deliver'} the deleted events to a catch-up subscription to $all`, async () => {
      const prefix = uniquePrefix();
      const from = (await store().appendToStream(uniqueStream('marker'), makeEvents(1, 'marker'))).position;
      const { stream, batch } = await threeEvents(`${prefix}gone`);
      await store().tombstoneStream(stream);
      const kept = makeEvents(1);
      await store().appendToStream(`${prefix}kept`, kept);
      const subscription = store().subscribeToAll({ fromPosition: from, filter: { streamNamePrefixes: [prefix] } });
      try {
        const items = await pullUntil(iteratorOf(subscription), (got) => got.some((item) => item.kind === 'caught_up'));
        expect(idsOf(eventsIn(items))).toEqual(inAllAfterDelete(batch, kept));
      } finally {
        await subscription.close();
      }
    });
  });

  describe('tombstoneStream (hard delete)', () => {
    it('makes reads raise StreamDeleted', async () => {
      const { stream } = await threeEvents();
      await store().tombstoneStream(stream, { expectedRevision: 2n });
      await expectLedgerError(store().readStream(stream), 'stream_deleted', { stream });
      await expectLedgerError(store().readStream(stream, { direction: 'backwards', maxCount: 1 }), 'stream_deleted', { stream });
    });

    it('makes every append raise StreamDeleted: the stream cannot be recreated', async () => {
      const { stream } = await threeEvents();
      await store().tombstoneStream(stream);
      for (const expectedRevision of ['any', 'no_stream', 'stream_exists', 2n] as ExpectedRevision[]) {
        await expectLedgerError(store().appendToStream(stream, makeEvents(1), { expectedRevision }), 'stream_deleted', { stream });
      }
      await expectLedgerError(store().deleteStream(stream), 'stream_deleted', { stream });
      await expectLedgerError(store().tombstoneStream(stream), 'stream_deleted', { stream });
      await expectLedgerError(store().readStream(stream), 'stream_deleted', { stream });
    });

    it(
      keptUntilScavenge
        ? 'keeps the stream’s events in readAll until a scavenge; the stream stays deleted after it'
        : 'removes the stream’s events from readAll at once',
      async () => {
        const prefix = uniquePrefix();
        const { stream, batch } = await threeEvents(`${prefix}gone`);
        const first = (await store().readStream(stream, { maxCount: 1 }))[0]!.position;
        const kept = makeEvents(2);
        await store().appendToStream(`${prefix}kept`, kept);
        await store().tombstoneStream(stream);
        expect(idsOf(await readAllOf(store(), prefix, first))).toEqual(inAllAfterDelete(batch, kept));
        if (!capabilities.scavenge) return;
        await scavenge();
        expect(idsOf(await readAllOf(store(), prefix, first))).toEqual(idsOf(kept));
        await expectLedgerError(store().readStream(stream), 'stream_deleted', { stream });
        await expectLedgerError(store().appendToStream(stream, makeEvents(1)), 'stream_deleted', { stream });
      },
    );

    it('can tombstone a soft-deleted stream, which then stays deleted', async () => {
      const { stream } = await threeEvents();
      await store().deleteStream(stream);
      await store().tombstoneStream(stream, { expectedRevision: 'any' });
      await expectLedgerError(store().appendToStream(stream, makeEvents(1)), 'stream_deleted');
    });
  });

  describe('delete and tombstone are conditional on the expected revision', () => {
    const cases: Array<[string, ExpectedRevision, string]> = [
      ['a stale revision', 1n, '1'],
      ['a future revision', 9n, '9'],
      ['no_stream on an existing stream', 'no_stream', 'no_stream'],
    ];
    for (const [label, expectedRevision, expected] of cases) {
      for (const operation of ['deleteStream', 'tombstoneStream'] as const) {
        it(`${operation} with ${label} fails with WrongExpectedVersion and changes nothing`, async () => {
          const { stream, batch } = await threeEvents();
          await expectLedgerError(store()[operation](stream, { expectedRevision }), 'wrong_expected_version', {
            stream,
            expected,
            actual: '2',
          });
          expect(idsOf(await store().readStream(stream))).toEqual(idsOf(batch));
          const result = await store().appendToStream(stream, makeEvents(1), { expectedRevision: 2n });
          expect(result.nextExpectedRevision).toBe(3n);
        });
      }
    }

    it('stream_exists on a missing stream fails for both and leaves it writable', async () => {
      const stream = uniqueStream();
      await expectLedgerError(store().deleteStream(stream, { expectedRevision: 'stream_exists' }), 'wrong_expected_version', {
        stream,
        actual: 'no_stream',
      });
      await expectLedgerError(store().tombstoneStream(stream, { expectedRevision: 'stream_exists' }), 'wrong_expected_version', {
        stream,
        actual: 'no_stream',
      });
      const result = await store().appendToStream(stream, makeEvents(1), { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(0n);
    });

    it('the matching exact revision deletes', async () => {
      const { stream } = await threeEvents();
      await store().deleteStream(stream, { expectedRevision: 2n });
      expect(await readOrError(store(), stream)).toBe('stream_not_found');
    });
  });
};
