import { describe, expect, it } from 'vitest';
import { newId, type Subscription, type SubscriptionItem } from '@session-ledger/core';
import { storesOnTempFiles } from './tempLedger.js';

const untilCaughtUp = async (subscription: Subscription): Promise<SubscriptionItem[]> => {
  const items: SubscriptionItem[] = [];
  for await (const item of subscription) {
    items.push(item);
    if (item.kind === 'caught_up') break;
  }
  await subscription.close();
  return items;
};

describe('subscribing after the highest position or revision a store holds (2^63 - 1)', () => {
  const open = storesOnTempFiles('last-position');

  it('is caught up at once, with nothing delivered, instead of failing to bind after + 1', async () => {
    const { store } = open();
    await store.appendToStream('chat', [{ id: newId(), type: 'said', data: {} }]);
    const last = 2n ** 63n - 1n;
    for (const subscription of [store.subscribeToAll({ fromPosition: last }), store.subscribeToStream('chat', { fromRevision: last })]) {
      const kinds = (await untilCaughtUp(subscription)).map((item) => item.kind);
      expect(kinds.filter((kind) => kind === 'event')).toEqual([]);
      expect(kinds.at(-1)).toBe('caught_up');
    }
  });
});
