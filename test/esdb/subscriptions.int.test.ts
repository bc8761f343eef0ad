import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDurableSubscriber, SUBSCRIBER_BOOK, type EventStore, type SubscriptionItem } from '@session-ledger/core';
import { connect, events, pull, unique } from './helpers.js';

const kinds = (items: SubscriptionItem[]) => items.map((item) => item.kind);

describe('EventStoreDB subscriptions through the real client', () => {
  let env: Awaited<ReturnType<typeof connect>>;
  let store: EventStore;
  beforeAll(async () => {
    env = await connect();
    store = env.store;
  });
  afterAll(() => env.close());

  it('signals caught-up only after every stored event, even when the client buffers', async () => {
    const stream = unique('many');
    for (let i = 0; i < 6; i += 1) await store.appendToStream(stream, events(500));
    const subscription = store.subscribeToStream(stream);
    // A consumer that starts late: the adapter pauses the client, whose buffer then holds events.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const items = await pull(subscription, (got) => got.some((item) => item.kind === 'caught_up'));
    await subscription.close();
    expect(kinds(items).filter((kind) => kind === 'event')).toHaveLength(3000);
    expect(items[items.length - 1]).toEqual({ kind: 'caught_up', position: 2999n });
  });

  it('gives a filtered $all subscription a checkpoint, then caught-up, at the end of what it scanned', async () => {
    const prefix = `${unique('filtered')}-`;
    await store.appendToStream(`${prefix}a`, events(2));
    await store.appendToStream(unique('other'), events(40));
    const last = (await store.readAll({ direction: 'backwards', maxCount: 1 }))[0]!.position;
    const subscription = store.subscribeToAll({ filter: { streamNamePrefixes: [prefix] } });
    const items = await pull(subscription, (got) => got.some((item) => item.kind === 'caught_up'));
    await subscription.close();
    const tail = items.slice(-2);
    expect(kinds(items).filter((kind) => kind === 'event')).toHaveLength(2);
    expect(tail[0]!.kind).toBe('checkpoint');
    expect(tail[1]!.kind).toBe('caught_up');
    expect((tail[0] as { position: bigint }).position).toBeGreaterThanOrEqual(last);
  });

  it('lets a durable subscriber with a filter move its checkpoint past events it does not want', async () => {
    const name = unique('durable');
    const prefix = `${unique('wanted')}-`;
    await store.appendToStream(`${prefix}x`, events(1));
    await store.appendToStream(unique('unwanted'), events(50));
    const head = (await store.readAll({ direction: 'backwards', maxCount: 1 }))[0]!.position;
    const seen: string[] = [];
    const subscriber = startDurableSubscriber(store, name, (event) => void seen.push(event.streamName), {
      filter: { streamNamePrefixes: [prefix] },
    });
    await subscriber.caughtUp;
    await subscriber.stop();
    expect(seen).toEqual([`${prefix}x`]);
    expect(await store.readCheckpoint(SUBSCRIBER_BOOK.checkpoint(name))).toBeGreaterThanOrEqual(head);
  });

  it('delivers live events after caught-up, and filters event types exactly', async () => {
    const stream = unique('live');
    const subscription = store.subscribeToAll({ fromPosition: 'end', filter: { eventTypes: ['wanted'] } });
    const first = pull(subscription, (got) => got.some((item) => item.kind === 'event'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.appendToStream(stream, [...events(1, 'wanted-not'), ...events(1, 'wanted')]);
    const items = await first;
    await subscription.close();
    const delivered = items.flatMap((item) => (item.kind === 'event' ? [item.event.type] : []));
    expect(delivered).toEqual(['wanted']);
  });

  it('ends a subscription to a tombstoned stream with stream_deleted', async () => {
    const stream = unique('tomb');
    await store.appendToStream(stream, events(1));
    await store.tombstoneStream(stream);
    const subscription = store.subscribeToStream(stream);
    await expect(pull(subscription, () => false)).rejects.toMatchObject({ type: 'stream_deleted', details: { stream } });
  });

  it('stops delivering once closed, and the iteration ends', async () => {
    const stream = unique('close');
    await store.appendToStream(stream, events(3));
    const subscription = store.subscribeToStream(stream);
    const iterator = subscription[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ kind: 'event' });
    await subscription.close();
    expect((await iterator.next()).done).toBe(true);
  });

  it('ends a subscription with store_unavailable when its server goes away, instead of waiting forever', async () => {
    const gone = await connect();
    await gone.store.appendToStream(unique('drop'), events(1));
    const subscription = gone.store.subscribeToAll();
    // The expectation is attached before the server goes: the rejection may come while close() runs.
    const ended = expect(pull(subscription, () => false)).rejects.toMatchObject({ type: 'store_unavailable' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await gone.server.close();
    await ended;
    await gone.store.close();
  });
});

/**
 * KurrentDB 24.10.0-24.10.4 and 25.0.0 end a filtered catch-up after an empty page with the checkpoint
 * (end of the log, prepare 0): the next append lands at that commit position. The adapter kept only
 * the commit half; a subscriber that stored it and resumed from {Q, Q} never got the event at Q
 * (kurrent-io/KurrentDB#4970; outside review, session 27).
 */
describe('EventStoreDB subscriptions: a catch-up checkpoint at the end of the log (prepare 0)', () => {
  let env: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    env = await connect({ catchUpCheckpoint: 'end-of-log' });
  });
  afterAll(() => env.close());

  it('resuming from every checkpoint it yields delivers the next event, the one stored at that commit position', async () => {
    const { store } = env;
    const prefix = `${unique('resumed')}-`;
    await store.appendToStream(`${prefix}a`, events(1));
    await store.appendToStream(unique('other'), events(40));
    const subscription = store.subscribeToAll({ filter: { streamNamePrefixes: [prefix] } });
    const items = await pull(subscription, (got) => got.some((item) => item.kind === 'caught_up'));
    await subscription.close();
    const checkpoints = items.flatMap((item) => (item.kind === 'checkpoint' ? [item.position] : []));
    expect(checkpoints.length).toBeGreaterThan(0);

    const next = `${prefix}next`;
    await store.appendToStream(next, events(1));
    await store.appendToStream(`${prefix}after`, events(1));
    for (const from of checkpoints) {
      const resumed = store.subscribeToAll({ fromPosition: from, filter: { streamNamePrefixes: [prefix] } });
      const [first] = await pull(resumed, (got) => got.some((item) => item.kind === 'event'));
      await resumed.close();
      expect(first).toMatchObject({ kind: 'event', event: { streamName: next } });
    }
  });
});
