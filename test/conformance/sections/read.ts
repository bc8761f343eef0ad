import { describe, expect, it } from 'vitest';
import type { ConformanceContext } from '../context.js';
import { expectLedgerError, idsOf, makeEvents, readAllOf, uniquePrefix, uniqueStream } from '../helpers.js';

const revisions = (events: Array<{ revision: bigint }>) => events.map((event) => event.revision);

export const readSection = ({ store }: ConformanceContext): void => {
  describe('readStream', () => {
    const fiveEvents = async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(5), { expectedRevision: 'no_stream' });
      return stream;
    };

    it('reads forwards from the start by default, in revision order', async () => {
      const stream = await fiveEvents();
      expect(revisions(await store().readStream(stream))).toEqual([0n, 1n, 2n, 3n, 4n]);
    });

    it('reads forwards from an inclusive revision with a max count', async () => {
      const stream = await fiveEvents();
      expect(revisions(await store().readStream(stream, { fromRevision: 2n, maxCount: 2 }))).toEqual([2n, 3n]);
      expect(revisions(await store().readStream(stream, { fromRevision: 3n }))).toEqual([3n, 4n]);
      expect(revisions(await store().readStream(stream, { fromRevision: 'start', maxCount: 1 }))).toEqual([0n]);
    });

    it('reads backwards from the end by default, and from an inclusive revision with a max count', async () => {
      const stream = await fiveEvents();
      expect(revisions(await store().readStream(stream, { direction: 'backwards' }))).toEqual([4n, 3n, 2n, 1n, 0n]);
      expect(revisions(await store().readStream(stream, { direction: 'backwards', maxCount: 1 }))).toEqual([4n]);
      expect(revisions(await store().readStream(stream, { direction: 'backwards', fromRevision: 3n, maxCount: 2 }))).toEqual([3n, 2n]);
      expect(revisions(await store().readStream(stream, { direction: 'backwards', fromRevision: 'end', maxCount: 2 }))).toEqual([4n, 3n]);
    });

    it('reads nothing forwards past the last revision', async () => {
      const stream = await fiveEvents();
      expect(await store().readStream(stream, { fromRevision: 5n })).toEqual([]);
    });

    it('positions grow with revisions', async () => {
      const stream = await fiveEvents();
      const events = await store().readStream(stream);
      for (let i = 1; i < events.length; i += 1) expect(events[i]!.position > events[i - 1]!.position).toBe(true);
    });

    it('raises StreamNotFound for a stream that was never written', async () => {
      const stream = uniqueStream('missing');
      await expectLedgerError(store().readStream(stream), 'stream_not_found', { stream });
      await expectLedgerError(store().readStream(stream, { direction: 'backwards', maxCount: 1 }), 'stream_not_found', { stream });
    });
  });

  describe('readAll', () => {
    /** Interleaves appends to two streams and returns them in the order they were committed. */
    const interleaved = async () => {
      const prefix = uniquePrefix();
      const [a, b] = [`${prefix}a`, `${prefix}b`];
      const committed = [];
      for (const [stream, count] of [[a, 2], [b, 1], [a, 1], [b, 2]] as const) {
        const batch = makeEvents(count);
        await store().appendToStream(stream, batch);
        committed.push(...batch.map((event) => ({ stream, id: event.id })));
      }
      const first = (await store().readStream(a, { maxCount: 1 }))[0]!.position;
      return { prefix, a, b, committed, first };
    };

    it('reads forwards in global commit order, with strictly increasing positions', async () => {
      const { prefix, committed, first } = await interleaved();
      const events = await readAllOf(store(), prefix, first);
      expect(events.map((event) => ({ stream: event.streamName, id: event.id }))).toEqual(committed);
      for (let i = 1; i < events.length; i += 1) expect(events[i]!.position > events[i - 1]!.position).toBe(true);
    });

    it('carries each event with its stream name and revision', async () => {
      const { prefix, a, first } = await interleaved();
      const events = (await readAllOf(store(), prefix, first)).filter((event) => event.streamName === a);
      expect(revisions(events)).toEqual([0n, 1n, 2n]);
    });

    it('reads forwards from an inclusive position with a max count', async () => {
      const { prefix, first } = await interleaved();
      const ours = await readAllOf(store(), prefix, first);
      const third = ours[2]!;
      const page = await store().readAll({ fromPosition: third.position, maxCount: 2 });
      expect(page).toHaveLength(2);
      expect(page[0]!.id).toBe(third.id);
      expect(page[1]!.position > third.position).toBe(true);
    });

    it('reads backwards from an inclusive position with a max count', async () => {
      const { prefix, first } = await interleaved();
      const ours = await readAllOf(store(), prefix, first);
      const fourth = ours[3]!;
      const page = await store().readAll({ direction: 'backwards', fromPosition: fourth.position, maxCount: 3 });
      expect(idsOf(page)).toEqual([ours[3]!.id, ours[2]!.id, ours[1]!.id]);
    });

    it('reads backwards from the end, latest commit first', async () => {
      const { prefix, first } = await interleaved();
      const ours = await readAllOf(store(), prefix, first);
      const page = await store().readAll({ direction: 'backwards', maxCount: 50 });
      const mine = page.filter((event) => event.streamName.startsWith(prefix));
      expect(idsOf(mine)).toEqual(idsOf(ours).reverse());
      for (let i = 1; i < page.length; i += 1) expect(page[i]!.position < page[i - 1]!.position).toBe(true);
    });

    it('reads nothing forwards from the end nor backwards from the start', async () => {
      await interleaved();
      expect(await store().readAll({ fromPosition: 'end', maxCount: 10 })).toEqual([]);
      expect(await store().readAll({ direction: 'backwards', fromPosition: 'start', maxCount: 10 })).toEqual([]);
    });
  });
};
