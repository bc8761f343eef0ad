import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startDurableSubscriber, type RecordedEvent } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { idsOf, makeEvents, uniquePrefix, uniqueStream, waitFor } from '../helpers.js';

const checkpointName = () => `conformance-${randomUUID()}`;

export const durableSection = ({ store }: ConformanceContext): void => {
  /** A checkpoint at the current end, so the subscriber need not scan what other tests wrote. */
  const checkpointNow = async (name: string) => {
    const { position } = await store().appendToStream(uniqueStream('marker'), makeEvents(1, 'marker'));
    await store().storeCheckpoint(name, position);
  };

  describe('durable checkpoints', () => {
    it('stores and reads named checkpoints in the store; an unknown name has none', async () => {
      const [a, b] = [checkpointName(), checkpointName()];
      expect(await store().readCheckpoint(a)).toBeNull();
      await store().storeCheckpoint(a, 41n);
      await store().storeCheckpoint(b, 7n);
      await store().storeCheckpoint(a, 42n);
      expect(await store().readCheckpoint(a)).toBe(42n);
      expect(await store().readCheckpoint(b)).toBe(7n);
    });

    it('a restarted durable subscriber resumes after its last checkpoint with no gap', async () => {
      const prefix = uniquePrefix();
      const name = checkpointName();
      await checkpointNow(name);
      const filter = { streamNamePrefixes: [prefix] };
      const first: RecordedEvent[] = [];
      const before = makeEvents(3);
      await store().appendToStream(`${prefix}a`, before.slice(0, 2));
      const one = startDurableSubscriber(store(), name, (event) => void first.push(event), { filter });
      await one.caughtUp;
      await store().appendToStream(`${prefix}b`, before.slice(2));
      await waitFor(() => first.length >= 3, 'the live event');
      await one.stop();
      expect(idsOf(first)).toEqual(idsOf(before));
      expect((await store().readCheckpoint(name))! >= first[2]!.position).toBe(true);

      const missed = makeEvents(2);
      await store().appendToStream(`${prefix}a`, missed.slice(0, 1));
      await store().appendToStream(`${prefix}c`, missed.slice(1));
      const second: RecordedEvent[] = [];
      const two = startDurableSubscriber(store(), name, (event) => void second.push(event), { filter });
      await two.caughtUp;
      const live = makeEvents(1);
      await store().appendToStream(`${prefix}a`, live);
      await waitFor(() => second.length >= 3, 'the events appended while stopped, then the live one');
      await two.stop();
      expect(idsOf(second)).toEqual([...idsOf(missed), ...idsOf(live)]);
    });

    it('a handler failure stops the subscriber before its checkpoint, so the event is delivered again', async () => {
      const prefix = uniquePrefix();
      const name = checkpointName();
      await checkpointNow(name);
      const filter = { streamNamePrefixes: [prefix] };
      const batch = makeEvents(3);
      await store().appendToStream(`${prefix}a`, batch);
      const seen: string[] = [];
      const failing = startDurableSubscriber(
        store(),
        name,
        (event) => {
          seen.push(event.id);
          if (event.id === batch[1]!.id) throw new Error('handler failed');
        },
        { filter },
      );
      await expect(failing.done).rejects.toThrow('handler failed');
      expect(seen).toEqual(idsOf(batch.slice(0, 2)));
      const again: string[] = [];
      const retry = startDurableSubscriber(store(), name, (event) => void again.push(event.id), { filter });
      await retry.caughtUp;
      await retry.stop();
      expect(again).toEqual(idsOf(batch.slice(1)));
    });
  });
};
