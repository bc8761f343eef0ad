import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventStore, SubscriptionItem } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { eventsIn, idsOf, iteratorOf, makeEvents, pullUntil, uniquePrefix, uniqueStream } from '../helpers.js';

const countEvents = (n: number) => (items: SubscriptionItem[]) => eventsIn(items).length >= n;
const caughtUpAfter = (n: number) => (items: SubscriptionItem[]) => {
  const index = items.findIndex((item) => item.kind === 'caught_up');
  return index >= 0 && eventsIn(items.slice(0, index)).length >= n;
};
const indexOfCaughtUp = (items: SubscriptionItem[]) => items.findIndex((item) => item.kind === 'caught_up');

export const subscriptionSection = ({ store }: ConformanceContext): void => {
  /** A commit position taken before the test's events: subscriptions to $all start after it. */
  const positionNow = async () =>
    (await store().appendToStream(uniqueStream('marker'), makeEvents(1, 'marker'))).position;

  describe('subscribeToStream', () => {
    it('delivers history, signals caught up, then delivers live appends in order', async () => {
      const stream = uniqueStream();
      const history = makeEvents(3);
      await store().appendToStream(stream, history);
      const subscription = store().subscribeToStream(stream);
      try {
        const iterator = iteratorOf(subscription);
        const items = await pullUntil(iterator, caughtUpAfter(3));
        expect(idsOf(eventsIn(items))).toEqual(idsOf(history));
        const live = makeEvents(2, 'tested', 3);
        await store().appendToStream(stream, live, { expectedRevision: 2n });
        await pullUntil(iterator, countEvents(5), items);
        const events = eventsIn(items);
        expect(idsOf(events)).toEqual([...idsOf(history), ...idsOf(live)]);
        expect(events.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
        expect(eventsIn(items.slice(0, indexOfCaughtUp(items)))).toHaveLength(3);
      } finally {
        await subscription.close();
      }
    });

    it('starts after an exclusive revision', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(4));
      const subscription = store().subscribeToStream(stream, { fromRevision: 1n });
      try {
        const items = await pullUntil(iteratorOf(subscription), caughtUpAfter(2));
        expect(eventsIn(items).map((event) => event.revision)).toEqual([2n, 3n]);
      } finally {
        await subscription.close();
      }
    });

    it('from the end delivers only what is appended later', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(2));
      const subscription = store().subscribeToStream(stream, { fromRevision: 'end' });
      try {
        const iterator = iteratorOf(subscription);
        const items = await pullUntil(iterator, (seen) => indexOfCaughtUp(seen) >= 0);
        const live = makeEvents(1);
        await store().appendToStream(stream, live);
        await pullUntil(iterator, countEvents(1), items);
        expect(eventsIn(items).map((event) => [event.id, event.revision])).toEqual([[live[0]!.id, 2n]]);
      } finally {
        await subscription.close();
      }
    });

    it('waits for a stream that does not exist yet', async () => {
      const stream = uniqueStream();
      const subscription = store().subscribeToStream(stream);
      try {
        const iterator = iteratorOf(subscription);
        const items = await pullUntil(iterator, (seen) => indexOfCaughtUp(seen) >= 0);
        const live = makeEvents(2);
        await store().appendToStream(stream, live, { expectedRevision: 'no_stream' });
        await pullUntil(iterator, countEvents(2), items);
        expect(idsOf(eventsIn(items))).toEqual(idsOf(live));
      } finally {
        await subscription.close();
      }
    });
  });

  describe('catching up on a long history', () => {
    /** Events of history a subscriber had before a callback queued for the loop's next turn ran. */
    const seenBeforeNextTurn = async (subscription: ReturnType<EventStore['subscribeToAll']>, total: number) => {
      let seen = 0;
      let atTurn: number | null = null;
      setImmediate(() => {
        atTurn = seen;
      });
      try {
        for await (const item of subscription) {
          if (item.kind === 'event') seen += 1;
          if (item.kind === 'caught_up' && seen >= total) break;
        }
      } finally {
        await subscription.close();
      }
      return { seen, atTurn: atTurn as number | null };
    };

    // A subscriber that reads as fast as history comes (an SSE client on loopback, a read model at
    // start) must not hold the process until it is caught up: other requests wait for the loop.
    it('lets the event loop turn before the whole history is delivered (subscribeToStream)', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(1200));
      const { seen, atTurn } = await seenBeforeNextTurn(store().subscribeToStream(stream), 1200);
      expect(seen).toBe(1200);
      expect(atTurn).not.toBeNull();
      expect(atTurn!).toBeLessThan(1200);
    });

    it('lets the event loop turn before the whole history is delivered (subscribeToAll)', async () => {
      const prefix = uniquePrefix();
      const from = await positionNow();
      await store().appendToStream(`${prefix}a`, makeEvents(1200));
      const { seen, atTurn } = await seenBeforeNextTurn(store().subscribeToAll({ fromPosition: from, filter: { streamNamePrefixes: [prefix] } }), 1200);
      expect(seen).toBe(1200);
      expect(atTurn).not.toBeNull();
      expect(atTurn!).toBeLessThan(1200);
    });
  });

  describe('subscribeToAll', () => {
    it('starts after an exclusive position, delivers history, signals caught up, then live appends', async () => {
      const prefix = uniquePrefix();
      const before = makeEvents(1);
      await store().appendToStream(`${prefix}a`, before);
      const from = await positionNow();
      const history = makeEvents(2);
      await store().appendToStream(`${prefix}b`, history);
      const subscription = store().subscribeToAll({ fromPosition: from, filter: { streamNamePrefixes: [prefix] } });
      try {
        const iterator = iteratorOf(subscription);
        const items = await pullUntil(iterator, caughtUpAfter(2));
        expect(idsOf(eventsIn(items))).toEqual(idsOf(history));
        const live = makeEvents(2);
        await store().appendToStream(`${prefix}a`, live.slice(0, 1));
        await store().appendToStream(`${prefix}c`, live.slice(1));
        await pullUntil(iterator, countEvents(4), items);
        expect(idsOf(eventsIn(items))).toEqual([...idsOf(history), ...idsOf(live)]);
        const positions = eventsIn(items).map((event) => event.position);
        for (let i = 1; i < positions.length; i += 1) expect(positions[i]! > positions[i - 1]!).toBe(true);
        expect(eventsIn(items.slice(0, indexOfCaughtUp(items)))).toHaveLength(2);
      } finally {
        await subscription.close();
      }
    });

    it('starts exactly after the position of a given event', async () => {
      const prefix = uniquePrefix();
      const batch = makeEvents(3);
      await store().appendToStream(`${prefix}a`, batch);
      const [first] = await store().readStream(`${prefix}a`, { maxCount: 1 });
      const subscription = store().subscribeToAll({ fromPosition: first!.position, filter: { streamNamePrefixes: [prefix] } });
      try {
        const items = await pullUntil(iteratorOf(subscription), caughtUpAfter(2));
        expect(idsOf(eventsIn(items))).toEqual(idsOf(batch.slice(1)));
      } finally {
        await subscription.close();
      }
    });

    it('filters by stream-name prefix', async () => {
      const prefix = uniquePrefix();
      const other = uniquePrefix('other');
      const from = await positionNow();
      const wanted = makeEvents(2);
      await store().appendToStream(`${other}x`, makeEvents(2));
      await store().appendToStream(`${prefix}x`, wanted.slice(0, 1));
      await store().appendToStream(`${other}y`, makeEvents(1));
      const subscription = store().subscribeToAll({ fromPosition: from, filter: { streamNamePrefixes: [prefix] } });
      try {
        const iterator = iteratorOf(subscription);
        const items = await pullUntil(iterator, caughtUpAfter(1));
        await store().appendToStream(`${other}x`, makeEvents(1));
        await store().appendToStream(`${prefix}y`, wanted.slice(1));
        await pullUntil(iterator, countEvents(2), items);
        expect(idsOf(eventsIn(items))).toEqual(idsOf(wanted));
        expect(eventsIn(items).every((event) => event.streamName.startsWith(prefix))).toBe(true);
      } finally {
        await subscription.close();
      }
    });

    it('filters by event type', async () => {
      const prefix = uniquePrefix();
      const wantedType = `wanted-${randomUUID().slice(0, 8)}`;
      const from = await positionNow();
      const wanted = [...makeEvents(1, wantedType), ...makeEvents(1, wantedType)];
      await store().appendToStream(`${prefix}a`, [...makeEvents(1, 'unwanted'), wanted[0]!, ...makeEvents(1, 'unwanted')]);
      const subscription = store().subscribeToAll({ fromPosition: from, filter: { eventTypes: [wantedType] } });
      try {
        const iterator = iteratorOf(subscription);
        const items = await pullUntil(iterator, caughtUpAfter(1));
        await store().appendToStream(`${prefix}b`, [...makeEvents(2, 'unwanted'), wanted[1]!]);
        await pullUntil(iterator, countEvents(2), items);
        expect(idsOf(eventsIn(items))).toEqual(idsOf(wanted));
        expect(eventsIn(items).every((event) => event.type === wantedType)).toBe(true);
      } finally {
        await subscription.close();
      }
    });

    it('signals caught up even when nothing after the start matches', async () => {
      const from = await positionNow();
      const subscription = store().subscribeToAll({ fromPosition: from, filter: { streamNamePrefixes: [uniquePrefix('nobody')] } });
      try {
        const items = await pullUntil(iteratorOf(subscription), (seen) => indexOfCaughtUp(seen) >= 0);
        expect(eventsIn(items)).toEqual([]);
      } finally {
        await subscription.close();
      }
    });

    it('from the end delivers only what is appended later', async () => {
      const prefix = uniquePrefix();
      await store().appendToStream(`${prefix}a`, makeEvents(2));
      const subscription = store().subscribeToAll({ fromPosition: 'end', filter: { streamNamePrefixes: [prefix] } });
      try {
        const iterator = iteratorOf(subscription);
        const items = await pullUntil(iterator, (seen) => indexOfCaughtUp(seen) >= 0);
        const live = makeEvents(1);
        await store().appendToStream(`${prefix}a`, live);
        await pullUntil(iterator, countEvents(1), items);
        expect(idsOf(eventsIn(items))).toEqual(idsOf(live));
      } finally {
        await subscription.close();
      }
    });
  });
};
