import { describe, expect, it } from 'vitest';
import { newId, type Subscription } from '@session-ledger/core';
import { storesOnTempFiles } from './tempLedger.js';
import { untilCaughtUp } from './untilCaughtUp.js';

/** The events a subscription delivered, then 'caught-up'. */
const until = async (subscription: Subscription): Promise<string[]> =>
  (await untilCaughtUp(subscription)).flatMap((item) => (item.kind === 'event' ? [`${item.event.streamName}@${item.event.revision}`] : item.kind === 'caught_up' ? ['caught-up'] : []));

/**
 * History is paged by stored size (1 MiB of event text a page, core's CATCH_UP_BYTES) as well as by
 * count: large events arrive whole, in order, once each, with one caught-up after the last, from a
 * stream and from $all.
 */
describe('SQLite catch-up over events larger than a page\'s byte budget', () => {
  const open = storesOnTempFiles('catchup-bytes');

  it('delivers every event once, in order, then caught-up once', async () => {
    const { store } = open();
    const big = 'x'.repeat(300 * 1024);
    for (let n = 0; n < 12; n += 1) {
      await store.appendToStream('big', [{ id: newId(), type: 'large', data: { n, big } }], { expectedRevision: 'any' });
      await store.appendToStream('small', [{ id: newId(), type: 'small', data: { n } }], { expectedRevision: 'any' });
    }
    const stream = await until(store.subscribeToStream('big'));
    expect(stream).toEqual([...Array.from({ length: 12 }, (_, n) => `big@${n}`), 'caught-up']);
    const all = await until(store.subscribeToAll());
    expect(all).toEqual([...Array.from({ length: 12 }, (_, n) => [`big@${n}`, `small@${n}`]).flat(), 'caught-up']);
  });
});
