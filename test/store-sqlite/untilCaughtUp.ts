import type { Subscription, SubscriptionItem } from '@session-ledger/core';

/** Every item a subscription delivers through its first caught-up signal; then it is closed. */
export const untilCaughtUp = async (subscription: Subscription): Promise<SubscriptionItem[]> => {
  const items: SubscriptionItem[] = [];
  for await (const item of subscription) {
    items.push(item);
    if (item.kind === 'caught_up') break;
  }
  await subscription.close();
  return items;
};
