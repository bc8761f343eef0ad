import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLedger, readSubscriberStatus, recordSubscriberEvent, resumeSubscribers, startDurableSubscriber, SUBSCRIBER_BOOK, type RecordedEvent } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { expectLedgerError, idsOf, makeEvents, uniquePrefix, uniqueStream, waitFor } from '../helpers.js';

const checkpointName = () => `conformance-${randomUUID()}`;

export const durableSection = ({ store }: ConformanceContext): void => {
  /** A subscriber's checkpoint at the current end, so it need not scan what other tests wrote. */
  const checkpointNow = async (name: string) => {
    const { position } = await store().appendToStream(uniqueStream('marker'), makeEvents(1, 'marker'));
    await store().storeCheckpoint(SUBSCRIBER_BOOK.checkpoint(name), position);
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
      expect((await store().readCheckpoint(SUBSCRIBER_BOOK.checkpoint(name)))! >= first[2]!.position).toBe(true);

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

    // Until session 26 a subscriber's checkpoint was its bare name, the name space of other modules' checkpoints.
    it('a subscriber an earlier version ran resumes after the checkpoint kept under its bare name; a new one never reads a bare name', async () => {
      const prefix = uniquePrefix();
      const filter = { streamNamePrefixes: [prefix] };
      const before = makeEvents(2);
      const { position } = await store().appendToStream(`${prefix}a`, before);
      const collect = async (name: string) => {
        const seen: RecordedEvent[] = [];
        const subscriber = startDurableSubscriber(store(), name, (event) => void seen.push(event), { filter });
        await subscriber.caughtUp;
        await subscriber.stop();
        return idsOf(seen);
      };
      const earlier = checkpointName();
      await recordSubscriberEvent(createLedger(store()), SUBSCRIBER_BOOK, 'registered', { name: earlier });
      await store().storeCheckpoint(earlier, position);
      const unknown = checkpointName();
      await store().storeCheckpoint(unknown, position);
      const after = makeEvents(1);
      await store().appendToStream(`${prefix}b`, after);

      expect(await collect(earlier)).toEqual(idsOf(after));
      expect((await readSubscriberStatus(store(), earlier)).checkpoint! >= position).toBe(true);
      expect(await collect(unknown)).toEqual([...idsOf(before), ...idsOf(after)]);
    });

    it('a throwing handler is retried with backoff, parked naming the event, kept parked across a restart, and resumed with nothing lost', async () => {
      const prefix = uniquePrefix();
      const name = checkpointName();
      await checkpointNow(name);
      const filter = { streamNamePrefixes: [prefix] };
      const retry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 };
      const quiet = { filter, retry, onWarning: () => undefined };
      const batch = makeEvents(3);
      await store().appendToStream(`${prefix}a`, batch);
      let broken = true;
      const seen: string[] = [];
      const handler = (event: RecordedEvent) => {
        seen.push(event.id);
        if (broken && event.id === batch[1]!.id) throw new Error('handler failed');
      };
      const first = startDurableSubscriber(store(), name, handler, quiet);
      await waitFor(async () => (await readSubscriberStatus(store(), name).catch(() => null))?.state === 'parked', 'the parking');
      await first.caughtUp;
      const parked = await readSubscriberStatus(store(), name);
      expect(parked).toMatchObject({
        state: 'parked',
        reason: 'handler failed',
        failed: { stream: `${prefix}a`, revision: 1, eventId: batch[1]!.id, eventType: 'tested', attempts: 3 },
      });
      expect(parked.checkpoint).toBe((await store().readStream(`${prefix}a`))[0]!.position);
      expect(seen).toEqual(idsOf([batch[0]!, batch[1]!, batch[1]!, batch[1]!]));

      // Parked is stored, not held in memory: a restarted subscriber stays parked and delivers nothing.
      await first.stop();
      const later = makeEvents(1);
      await store().appendToStream(`${prefix}b`, later);
      const second = startDurableSubscriber(store(), name, handler, quiet);
      await second.caughtUp;
      expect(seen).toHaveLength(4);

      broken = false;
      expect(await resumeSubscribers(store(), name)).toEqual([name]);
      await waitFor(() => seen.length >= 7, 'the failed event again, then the rest');
      await second.stop();
      expect(seen.slice(4)).toEqual(idsOf([batch[1]!, batch[2]!, ...later]));
      const resumed = await readSubscriberStatus(store(), name);
      expect(resumed.state).toBe('active');
      expect(resumed.failed).toBeUndefined();
      await expectLedgerError(resumeSubscribers(store(), `${name}-unknown`), 'not_found');
    });
  });
};
