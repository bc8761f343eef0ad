import { describe, expect, it } from 'vitest';
import { newId } from '@session-ledger/core';
import { storesOnTempFiles } from './tempLedger.js';
import { untilCaughtUp } from './untilCaughtUp.js';

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
