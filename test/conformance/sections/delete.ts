import { describe, expect, it } from 'vitest';
import type { ExpectedRevision } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { expectLedgerError, idsOf, makeEvents, readAllOf, readOrError, uniquePrefix, uniqueStream } from '../helpers.js';

export const deleteSection = ({ store }: ConformanceContext): void => {
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

    it('removes the deleted events from readAll, and only those', async () => {
      const prefix = uniquePrefix();
      const { stream, batch } = await threeEvents(`${prefix}gone`);
      const kept = makeEvents(1);
      await store().appendToStream(`${prefix}kept`, kept);
      const first = (await store().readStream(stream, { maxCount: 1 }))[0]!.position;
      await store().deleteStream(stream);
      const after = makeEvents(1);
      await store().appendToStream(stream, after);
      const ids = idsOf(await readAllOf(store(), prefix, first));
      for (const event of batch) expect(ids).not.toContain(event.id);
      expect(ids).toEqual([...idsOf(kept), ...idsOf(after)]);
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

    it('removes the stream’s events from readAll', async () => {
      const prefix = uniquePrefix();
      const { stream } = await threeEvents(`${prefix}gone`);
      const first = (await store().readStream(stream, { maxCount: 1 }))[0]!.position;
      const kept = makeEvents(2);
      await store().appendToStream(`${prefix}kept`, kept);
      await store().tombstoneStream(stream);
      expect(idsOf(await readAllOf(store(), prefix, first))).toEqual(idsOf(kept));
    });

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
